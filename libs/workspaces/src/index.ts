export * from './workspaces.module';
export * from './workspace.service';
export * from './workspace.dto';
export * from './sandbox-lifecycle.module';
export * from './sandbox-manager.service';
export * from './workspace-lifecycle.job';
export * from './workspace-import.port';
