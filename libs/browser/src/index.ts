export * from './browser.module';
export * from './browser.hub';
export * from './browser-payloads';
export * from './browser-events';
export * from './input-rate-limit';
