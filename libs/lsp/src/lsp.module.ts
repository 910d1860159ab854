import { Module } from '@nestjs/common';
import { FilesModule } from '@h/files';
import { IdentityModule } from '@h/identity';
import { LspGateway } from './lsp.gateway';
import { LspHub } from './lsp.hub';

/**
 * Language intelligence in the api process: the Socket.IO side (`diagnostics.*`, `lsp.*`) over the
 * workspace's sandbox connection the file API already holds (FileSandboxService).
 */
@Module({
  imports: [IdentityModule, FilesModule],
  providers: [LspHub, LspGateway],
})
export class LspModule {}
