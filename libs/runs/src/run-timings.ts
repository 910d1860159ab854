import type { Workspace } from '@h/contracts';
import type { ModelProvider } from '@h/llm';

interface Span {
  ms: number;
  n: number;
}

/**
 * Where one run segment's wall time goes, by phase (claim, log read, sandbox open, model stream,
 * sandbox calls, appends, publishes). Logged at debug level when the segment ends: the runs
 * benchmark (bench/runs) reads it to find H's own time per step. Costs a few clock reads per event.
 */
export class RunTimings {
  private readonly spans = new Map<string, Span>();
  private readonly t0 = performance.now();
  // Start offset, name and duration of every span, in order: the run's timeline (debug log).
  private readonly marks: string[] = [];

  async time<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.add(name, performance.now() - t);
    }
  }

  add(name: string, ms: number): void {
    this.marks.push(`${(performance.now() - ms - this.t0).toFixed(1)} ${name} ${ms.toFixed(1)}`);
    const s = this.spans.get(name);
    if (s) {
      s.ms += ms;
      s.n += 1;
    } else this.spans.set(name, { ms, n: 1 });
  }

  /** The provider with its streams timed as `model` (first byte to last, as the loop waits on it). */
  provider(provider: ModelProvider): ModelProvider {
    const add = (ms: number) => this.add('model', ms);
    return {
      id: provider.id,
      async *stream(request) {
        const t = performance.now();
        try {
          yield* provider.stream(request);
        } finally {
          add(performance.now() - t);
        }
      },
    };
  }

  /** The workspace with every call timed as `sandbox.<method>`. */
  workspace(workspace: Workspace): Workspace {
    return new Proxy(workspace, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => this.time(`sandbox.${String(key)}`, () => Promise.resolve(value.apply(target, args)));
      },
    });
  }

  /** `{ phase: "12.3 ms / 5" }`, plus the total and what no span covers (the engine's own time). */
  summary(): Record<string, string> {
    const total = performance.now() - this.t0;
    const out: Record<string, string> = { total: `${total.toFixed(1)} ms` };
    let covered = 0;
    for (const [name, s] of this.spans) {
      out[name] = `${s.ms.toFixed(1)} ms / ${s.n}`;
      // sandbox.exec runs inside a tool; appends and publishes inside onEvent: none overlap.
      covered += s.ms;
    }
    out.uncovered = `${(total - covered).toFixed(1)} ms`;
    return out;
  }

  /** A point on the timeline (an event the engine emitted), not a span. */
  mark(name: string): void {
    this.marks.push(`${(performance.now() - this.t0).toFixed(1)} ${name}`);
  }

  /** Each span as `<start ms> <name> <duration ms>`, in the order they ended. */
  timeline(): string[] {
    return this.marks;
  }
}
