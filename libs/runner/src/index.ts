export * from './runner.module';
export * from './agent-run.job';
export * from './sandbox-manager.service';
export * from './event-order';
export * from './workspace-lifecycle.job';
export * from './permission-policy';
