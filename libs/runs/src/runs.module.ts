import { Module } from '@nestjs/common';
import { RunDispatcher } from './run-dispatcher.service';

@Module({ providers: [RunDispatcher], exports: [RunDispatcher] })
export class RunsModule {}
