export * from './memory.module';
export * from './memory.service';
export * from './memory-key';
export * from './memory-capture';
export * from './memory-selection';
export * from './memory-tool-port';
export * from './memory-embeddings';
