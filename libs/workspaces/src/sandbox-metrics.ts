import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SandboxRepository } from '@h/db';
import { metrics } from '@h/telemetry';

/** Feeds h_sandboxes{state} from the recorded sandboxes at scrape time (the worker's metrics). */
@Injectable()
export class SandboxMetrics implements OnModuleInit, OnModuleDestroy {
  constructor(private readonly sandboxes: SandboxRepository) {}

  onModuleInit(): void {
    metrics.sandboxes.setProbe(async (gauge) => {
      for (const [state, n] of Object.entries(await this.sandboxes.countByStatus())) gauge.set({ state }, n);
    });
  }

  onModuleDestroy(): void {
    metrics.sandboxes.setProbe(null);
  }
}
