import { Module } from '@nestjs/common';
import { FilesModule } from '@h/files';
import { IdentityModule } from '@h/identity';
import { GraphController } from './graph.controller';
import { LspGateway } from './lsp.gateway';
import { LspHub } from './lsp.hub';

/**
 * Language intelligence in the api process: the Socket.IO side (`diagnostics.*`, `lsp.*`) over the
 * workspace's sandbox connection the file API already holds (FileSandboxService), and the
 * knowledge graph's status route.
 */
@Module({
  imports: [IdentityModule, FilesModule],
  controllers: [GraphController],
  providers: [LspHub, LspGateway],
})
export class LspModule {}
