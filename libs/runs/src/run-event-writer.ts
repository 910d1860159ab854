import type { AgentEvent } from '@h/contracts';
import type { ModelProvider } from '@h/llm';

/**
 * Persists one batch (throws when it could not) and returns how to publish what was persisted;
 * the writer publishes batches in order, each after it is persisted.
 */
export type BatchWrite = (batch: AgentEvent[], durable: boolean) => Promise<() => Promise<void>>;

/**
 * Group commit for one run segment's events. A commit costs a WAL flush (about 5 ms on the shared
 * build machine, bench/runs), and a model step emits four to six events, so writing each on its
 * own was most of H's time per step. Events queue here and are written in batches, one statement
 * each, in order, while the engine goes on; nothing changes the workspace ahead of the events
 * before it, and everything is published in the order it was pushed:
 *
 * - before every tool call that changes something (a `tool.start` whose category is not `read`),
 *   everything queued is persisted first (its publish may still be on its way), so a killed worker's successor finds
 *   every call that may have had an effect and gives it the interrupted result instead of running
 *   it twice;
 * - a model request starts the write of everything queued and goes out meanwhile, and its answer
 *   goes on to the engine without waiting for that write: what the engine makes of it is queued
 *   behind it, and its token deltas (`pushEphemeral`, live-only) are published only after the
 *   events before them are persisted and published, before any event after them;
 * - a response with tool calls waits (50 ms at most) for its first call's tool.start and goes in
 *   one batch with it: a first call that changes something used to wait for the response's own
 *   write (its authorisation may wait for the run's checkpoint) and then make a second one;
 * - the segment's end (`flush`) waits for the rest.
 *
 * What a crash can lose is only what no barrier has passed: events of read-only work and of the
 * model's answers, which the resumed run redoes (a side-effecting call's tool.start is always
 * persisted before it runs, so it gets the interrupted result instead). Events are still persisted
 * before they are published (the write does both), in order, and seqs stay gapless (one append
 * statement per batch).
 */
export class RunEventWriter {
  /** Events to write, and live-only publishes that must go out between them (in push order). */
  private readonly queue: Array<AgentEvent | Ephemeral> = [];
  private writing: Promise<void> | null = null;
  /** The publishes so far, in order (never rejects: a failure is kept in `failure`). */
  private publishing: Promise<void> = Promise.resolve();
  /** Publishes issued whose replies are still on their way. */
  private readonly unanswered = new Set<Promise<void>>();
  private scheduled = false;
  /** Set while a response's events wait for its first call (see push); the timer bounds the wait. */
  private holding: NodeJS.Timeout | null = null;
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
    // A response with tool calls is followed by its first call's tool.start once the call is
    // authorised, which may wait (for the run's checkpoint, the first time). Written on their own,
    // the response's events made the first call that changes something wait for that write and
    // then write its own: they wait for it instead, and go in one batch (HOLD_MS at most).
    if (this.holding) {
      if (event.type === 'usage') return;
      this.release();
    } else if (event.type === 'message.assistant' && hasToolCalls(event)) {
      this.holding = setTimeout(() => {
        this.holding = null;
        this.kick();
      }, HOLD_MS);
      return;
    }
    // Events emitted in one synchronous stretch of the engine share a batch.
    if (!this.scheduled && !this.writing) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.kick();
      });
    }
  }

  /**
   * Publishes something live-only (a token delta) right after everything pushed before it is
   * persisted and published, and before anything pushed after it; resolves at once. `publish`
   * runs at that moment, so what it reads (e.g. the seq it follows) is what is persisted by then.
   */
  pushEphemeral(publish: () => Promise<void>): void {
    this.queue.push({ ephemeral: publish });
    this.kick();
  }

  /** Resolves once every event queued is persisted; rejects with the write's error. */
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
    await Promise.all(this.unanswered);
    if (this.failure) throw this.failure;
  }

  /**
   * The provider, each request ordered after the events before it: the request goes out, and its
   * answer reaches the engine, while they commit (a model request changes nothing but the bill;
   * what the answer leads to is queued behind them, see the class comment).
   */
  provider(provider: ModelProvider): ModelProvider {
    const start = () => this.kick();
    return {
      id: provider.id,
      stream(request) {
        start();
        return provider.stream(request);
      },
    };
  }

  /** Ends a hold of a response's events (push): they go with the next write. */
  private release(): void {
    if (!this.holding) return;
    clearTimeout(this.holding);
    this.holding = null;
  }

  /**
   * Starts writing the events at the head of the queue (up to the first live-only publish, which
   * goes out after them), unless a write is running (it starts the next one itself).
   */
  private kick(): void {
    this.release(); // what was held goes now, with whatever asked for the write
    if (this.writing || this.failure) return;
    // Live-only publishes at the head follow everything already published: chain them now.
    while (this.queue.length && isEphemeral(this.queue[0])) {
      const { ephemeral } = this.queue.shift() as Ephemeral;
      this.chainPublish(ephemeral);
    }
    const end = this.queue.findIndex(isEphemeral);
    const batch = this.queue.splice(0, end === -1 ? this.queue.length : end) as AgentEvent[];
    if (!batch.length) return;
    // A batch holding a barrier (a call that changes something, the run's end) is committed
    // durably, which makes every batch before it durable too; the others need not wait for the
    // WAL flush (EventRepository.append `durable`).
    this.writing = this.write(batch, batch.some((e) => TERMINAL.has(e.type) || changesSomething(e))).then(
      (publish) => {
        this.chainPublish(publish);
        this.writing = null;
        this.kick();
      },
      (err: unknown) => {
        this.writing = null;
        this.fail(err);
      },
    );
  }

  /**
   * Issues `publish` after the publishes before it were issued, without waiting for their replies:
   * they share one Redis connection, which keeps them in order (flush waits for the replies).
   */
  private chainPublish(publish: () => Promise<void>): void {
    this.publishing = this.publishing.then(() => {
      if (this.failure) return;
      const sent = publish().catch((err: unknown) => this.fail(err));
      this.unanswered.add(sent);
      void sent.finally(() => this.unanswered.delete(sent));
    });
  }

  private fail(err: unknown): void {
    if (this.failure) return;
    this.failure = err;
    this.onFailure(err);
  }
}

interface Ephemeral {
  ephemeral: () => Promise<void>;
}

function isEphemeral(item: AgentEvent | Ephemeral): item is Ephemeral {
  return 'ephemeral' in item;
}

const TERMINAL = new Set(['run.done', 'run.failed', 'run.cancelled']);

/** Longest a response's events wait for its first call's tool.start before they are written anyway. */
const HOLD_MS = 50;

function hasToolCalls(event: AgentEvent): boolean {
  const calls = (event.data as { toolCalls?: unknown[] | null }).toolCalls;
  return Array.isArray(calls) && calls.length > 0;
}

function changesSomething(event: AgentEvent): boolean {
  if (event.type !== 'tool.start') return false;
  const category = (event.data as { category?: string | null }).category;
  return category !== 'read' && category !== null && category !== undefined;
}
