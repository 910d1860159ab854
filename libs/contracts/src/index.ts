export * from './workspace';
export * from './agent-events';
