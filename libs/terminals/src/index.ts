export * from './terminals.module';
export * from './terminals.hub';
export * from './output-ring';
