export * from './workspace';
export * from './agent-events';
export * from './files';
