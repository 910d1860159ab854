export * from './changes.module';
export * from './changes.service';
export * from './changes.dto';
export * from './change-restore';
