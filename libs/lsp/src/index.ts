export * from './lsp.module';
export * from './lsp.hub';
export * from './lsp.gateway';
export * from './graph.controller';
