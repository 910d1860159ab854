import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RunDispatcher } from './run-dispatcher.service';

const SWEEP_MS = 5000;

/** Periodically admits queued runs and re-enqueues runs whose job vanished (see RunDispatcher.sweep). */
@Injectable()
export class RunSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RunSweeper.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(private readonly dispatcher: RunDispatcher) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), SWEEP_MS);
    this.timer.unref();
    void this.tick();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.dispatcher.sweep();
    } catch (err) {
      this.logger.error({ err }, 'run sweep failed');
    } finally {
      this.running = false;
    }
  }
}
