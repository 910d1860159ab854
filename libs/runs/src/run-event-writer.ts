import type { AgentEvent } from '@h/contracts';
import type { ModelProvider } from '@h/llm';

/**
 * Persists one batch (throws when it could not) and returns how to publish what was persisted;
 * the writer publishes batches in order, each after it is persisted.
 */
export type BatchWrite = (batch: AgentEvent[]) => Promise<() => Promise<void>>;

/**
 * Group commit for one run segment's events. A commit costs a WAL flush (about 5 ms on the shared
 * build machine, bench/runs), and a model step emits four to six events, so writing each on its
 * own was most of H's time per step. Events queue here and are written in batches, one statement
 * each, in order, while the engine goes on; nothing changes the workspace, and nothing of a model
 * answer is recorded or published, ahead of the events before it:
 *
 * - before every tool call that changes something (a `tool.start` whose category is not `read`),
 *   everything queued is persisted first (its publish may still be on its way), so a killed worker's successor finds
 *   every call that may have had an effect and gives it the interrupted result instead of running
 *   it twice;
 * - a model request starts the write of everything queued and goes out meanwhile; its answer is
 *   passed on only once that is persisted and published (`provider`), so its deltas follow it;
 * - the segment's end (`flush`) waits for the rest.
 *
 * What a crash can lose is only what no barrier has passed: events of read-only work, which the
 * resumed run redoes, and, in the few milliseconds a write takes at the start of a model request,
 * the results of the calls before it (a side-effecting one then gets the interrupted result: its
 * tool.start is persisted). Events are still persisted before they are published (the write does
 * both), in order, and seqs stay gapless (one append statement per batch).
 */
export class RunEventWriter {
  private readonly queue: AgentEvent[] = [];
  private writing: Promise<void> | null = null;
  /** The publishes so far, in order (never rejects: a failure is kept in `failure`). */
  private publishing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private failure: unknown = null;

  constructor(
    private readonly write: BatchWrite,
    /** Called once when a write fails (e.g. the lease was lost): stop the engine, it cannot record. */
    private readonly onFailure: (err: unknown) => void,
  ) {}

  /** Queues an event; resolves at once, or after the flush when the event is a barrier. */
  async push(event: AgentEvent): Promise<void> {
    this.queue.push(event);
    if (TERMINAL.has(event.type)) return this.flush();
    if (changesSomething(event)) return this.persisted();
    // Events emitted in one synchronous stretch of the engine share a batch.
    if (!this.scheduled && !this.writing) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.kick();
      });
    }
  }

  /** Resolves once everything queued is persisted; rejects with the write's error. */
  async persisted(): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.writing) await this.writing;
      else if (this.queue.length) this.kick();
      else return;
    }
  }

  /** Resolves once everything queued is persisted and published; rejects with the first error. */
  async flush(): Promise<void> {
    await this.persisted();
    await this.publishing;
    if (this.failure) throw this.failure;
  }

  /**
   * The provider, each request ordered after the events before it: the request goes out while
   * they commit (a model request changes nothing but the bill), and nothing of its answer reaches
   * the engine (so nothing of it is recorded or published) before they are persisted.
   */
  provider(provider: ModelProvider): ModelProvider {
    const flush = () => this.flush();
    return {
      id: provider.id,
      async *stream(request) {
        const before = flush();
        before.catch(() => undefined); // awaited below
        const answer = provider.stream(request)[Symbol.asyncIterator]();
        let first = true;
        try {
          for (;;) {
            const next = await answer.next();
            if (first) {
              first = false;
              await before;
            }
            if (next.done) return;
            yield next.value;
          }
        } finally {
          await answer.return?.();
        }
      },
    };
  }

  /** Starts writing everything queued, unless a write is running (it starts the next one itself). */
  private kick(): void {
    if (this.writing || this.failure || !this.queue.length) return;
    const batch = this.queue.splice(0);
    this.writing = this.write(batch).then(
      (publish) => {
        this.publishing = this.publishing.then(() => (this.failure ? undefined : publish().catch((err: unknown) => this.fail(err))));
        this.writing = null;
        this.kick();
      },
      (err: unknown) => {
        this.writing = null;
        this.fail(err);
      },
    );
  }

  private fail(err: unknown): void {
    if (this.failure) return;
    this.failure = err;
    this.onFailure(err);
  }
}

const TERMINAL = new Set(['run.done', 'run.failed', 'run.cancelled']);

function changesSomething(event: AgentEvent): boolean {
  if (event.type !== 'tool.start') return false;
  const category = (event.data as { category?: string | null }).category;
  return category !== 'read' && category !== null && category !== undefined;
}
