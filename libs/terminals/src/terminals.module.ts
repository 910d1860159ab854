import { Module } from '@nestjs/common';
import { FilesModule } from '@h/files';
import { IdentityModule } from '@h/identity';
import { TerminalsGateway } from './terminals.gateway';
import { TerminalsHub } from './terminals.hub';
import { TerminalHistory } from './terminal-history';

/**
 * Shared terminals in the api process: the Socket.IO side (`terminal.*`) over the workspace's
 * sandbox connection that the file API already holds (FileSandboxService, api-role SandboxManager).
 */
@Module({
  imports: [IdentityModule, FilesModule],
  providers: [TerminalsHub, TerminalsGateway, TerminalHistory],
})
export class TerminalsModule {}
