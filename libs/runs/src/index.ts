export * from './run-dispatcher.service';
export * from './runs.module';
export * from './session-title';
