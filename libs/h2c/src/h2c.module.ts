import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { RunsApiModule } from '@h/runs';
import { SessionsModule } from '@h/sessions';
import { H2cController } from './h2c.controller';
import { H2cStreamService } from './h2c-stream.service';
import { H2cTaskService } from './h2c-task.service';

/** The h2c-compatible task API (`/health`, `/v1/task*`) of the api process. */
@Module({
  imports: [IdentityModule, RunsApiModule, SessionsModule],
  controllers: [H2cController],
  providers: [H2cTaskService, H2cStreamService],
})
export class H2cModule {}
