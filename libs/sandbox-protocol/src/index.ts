export * from './ndjson-rpc';
export * from './protocol';
