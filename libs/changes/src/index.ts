export * from './changes.module';
export * from './changes.service';
export * from './changes.dto';
export * from './change-restore';
export * from './session-fork.service';
export * from './session-fork.dto';
