import { Module } from '@nestjs/common';
import { EgressService } from './egress.service';

/** The egress proxy as a provider of the process that runs sandboxes (the worker). */
@Module({ providers: [EgressService], exports: [EgressService] })
export class EgressModule {}
