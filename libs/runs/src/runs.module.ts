import { Module } from '@nestjs/common';
import { DelegationService } from './delegation.service';
import { RunDispatcher } from './run-dispatcher.service';

@Module({ providers: [RunDispatcher, DelegationService], exports: [RunDispatcher, DelegationService] })
export class RunsModule {}
