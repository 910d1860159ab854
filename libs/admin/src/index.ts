export * from './admin.module';
export * from './admin.dto';
