export * from './workspace';
export * from './error-codes';
export * from './agent-events';
export * from './session-api';
export * from './identity-api';
export * from './workspace-api';
export * from './socket-events';
export * from './files';
