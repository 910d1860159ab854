import { Module } from '@nestjs/common';
import { FilesModule } from '@h/files';
import { IdentityModule } from '@h/identity';
import { BrowserGateway } from './browser.gateway';
import { BrowserHub } from './browser.hub';

/**
 * The browser view in the api process: the Socket.IO side (`browser.*`) over the workspace's sandbox
 * connection that the file API already holds (FileSandboxService, api-role SandboxManager).
 */
@Module({
  imports: [IdentityModule, FilesModule],
  providers: [BrowserHub, BrowserGateway],
})
export class BrowserModule {}
