export * from './sandbox-driver';
export * from './sandbox-client';
export * from './transports';
export * from './docker-sandbox.driver';
export * from './local-sandbox.driver';
export * from './sandbox-workspace';
export * from './sandbox-image';
