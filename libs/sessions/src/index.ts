export * from './sessions.module';
export * from './session.dto';
export * from './realtime/redis-io.adapter';
export * from './realtime/session-stream.hub';
