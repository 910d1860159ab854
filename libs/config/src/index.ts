export * from './env.schema';
export * from './app-config';
export * from './config.module';
export * from './host-env';
export * from './sandboxd-env';
export * from './tool-env';
export * from './docker-hosts';
