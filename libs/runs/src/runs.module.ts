import { Module } from '@nestjs/common';
import { TeamBudgetService } from './budget/team-budget.service';
import { DelegationService } from './delegation.service';
import { RunDispatcher } from './run-dispatcher.service';

@Module({ providers: [RunDispatcher, DelegationService, TeamBudgetService], exports: [RunDispatcher, DelegationService, TeamBudgetService] })
export class RunsModule {}
