export * from './presence.module';
export * from './presence.service';
export * from './presence-state';
