export * from './log-context';
export * from './metrics-access';
export * from './metrics.registry';
export * from './telemetry.module';
export * from './tracing';
