export * from './ndjson-rpc';
export * from './protocol';
export * from './lsp-protocol';
export * from './browser-protocol';
export * from './graph-protocol';
