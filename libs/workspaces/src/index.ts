export * from './workspaces.module';
export * from './workspace.service';
export * from './workspace.dto';
export * from './workspace-jobs.module';
export * from './workspace-setup.job';
