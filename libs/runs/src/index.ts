export * from './run-dispatcher.service';
export * from './runs.module';
export * from './run-worker.module';
export * from './session-title';
export * from './agent-run.job';
export * from './event-order';
export * from './permission-policy';
