import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { SessionQueryService } from './session-query.service';
import { SessionSearchController } from './session-search.controller';
import { SessionSearchService } from './session-search.service';

/** The search services, for the worker (the agent's session-query tools) and the api alike. */
@Module({
  providers: [SessionSearchService, SessionQueryService],
  exports: [SessionSearchService, SessionQueryService],
})
export class SessionSearchCoreModule {}

/** The api side: the IDE's search box route. */
@Module({
  imports: [IdentityModule, SessionSearchCoreModule],
  controllers: [SessionSearchController],
})
export class SessionSearchModule {}
