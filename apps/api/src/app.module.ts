import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AdminModule } from '@h/admin';
import { BrowserModule } from '@h/browser';
import { ChangesModule } from '@h/changes';
import { AppConfig, ConfigModule } from '@h/config';
import { DbModule } from '@h/db';
import { FilesModule } from '@h/files';
import { GitRemoteModule } from '@h/git-remote';
import { H2cModule } from '@h/h2c';
import { httpLoggerParams } from '@h/http';
import { IdentityModule } from '@h/identity';
import { JobsModule } from '@h/jobs';
import { LspModule } from '@h/lsp';
import { McpClientApiModule } from '@h/mcp';
import { McpServerModule } from '@h/mcp-server';
import { MemoryApiModule } from '@h/memory';
import { PresenceModule } from '@h/presence';
import { PreferencesModule } from '@h/preferences';
import { ProvidersModule } from '@h/providers';
import { RunsApiModule } from '@h/runs';
import { ScmModule } from '@h/scm';
import { SessionSearchModule } from '@h/session-search';
import { SessionsModule } from '@h/sessions';
import { TelemetryModule } from '@h/telemetry';
import { TerminalsModule } from '@h/terminals';
import { WorkspacesModule } from '@h/workspaces';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(httpLoggerParams(config)),
        TelemetryModule.forRoot('api'),
        DbModule,
        JobsModule.forRoot(),
        IdentityModule,
        WorkspacesModule,
        ProvidersModule,
        RunsApiModule,
        SessionsModule,
        SessionSearchModule,
        FilesModule,
        ScmModule,
        TerminalsModule,
        LspModule,
        PresenceModule,
        PreferencesModule,
        ChangesModule,
        GitRemoteModule,
        H2cModule,
        McpClientApiModule,
        McpServerModule,
        BrowserModule,
        MemoryApiModule,
        AdminModule,
      ],
      controllers: [HealthController, MetricsController],
    };
  }
}
