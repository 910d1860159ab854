export * from './h2c.module';
export * from './h2c-frames';
