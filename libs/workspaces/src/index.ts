export * from './workspaces.module';
export * from './workspace.service';
export * from './workspace.dto';
