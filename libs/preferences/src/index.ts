export * from './preferences.module';
export * from './preferences.service';
export * from './preferences.dto';
