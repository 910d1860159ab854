import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface LagStats {
  p50: number;
  p99: number;
  max: number;
}

const WINDOW_MS = 10_000;
const RESOLUTION_MS = 20;

/**
 * Event-loop delay (perf_hooks) over a recent window: the histogram is rotated every WINDOW_MS
 * and a reading takes the worse of the last full window and the current one, so a stall shows for
 * at least one window and an old one does not stay forever.
 */
export class EventLoopLag {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private previous: LagStats = { p50: 0, p99: 0, max: 0 };
  private readonly rotation: NodeJS.Timeout;

  constructor() {
    this.histogram.enable();
    this.rotation = setInterval(() => {
      this.previous = this.read();
      this.histogram.reset();
    }, WINDOW_MS);
    this.rotation.unref();
  }

  stats(): LagStats {
    const now = this.read();
    return {
      p50: Math.max(now.p50, this.previous.p50),
      p99: Math.max(now.p99, this.previous.p99),
      max: Math.max(now.max, this.previous.max),
    };
  }

  close(): void {
    clearInterval(this.rotation);
    this.histogram.disable();
  }

  // The histogram measures the delay beyond the sampling interval itself, in nanoseconds.
  private read(): LagStats {
    if (this.histogram.count === 0) return { p50: 0, p99: 0, max: 0 };
    const ms = (ns: number) => Math.round(Math.max(0, ns / 1e6 - RESOLUTION_MS) * 10) / 10;
    return { p50: ms(this.histogram.percentile(50)), p99: ms(this.histogram.percentile(99)), max: ms(this.histogram.max) };
  }
}
