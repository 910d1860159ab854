export * from './sessions.module';
export * from './session.dto';
export * from './realtime/redis-io.adapter';
export * from './realtime/session-stream.hub';
export * from './realtime/socket-principal';
export * from './realtime/live-access.service';
export { socketBufferedBytes } from './realtime/stream-sinks';
export * from './realtime/socket-ack';
export * from './realtime/socket-message';
