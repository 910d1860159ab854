// The agent loop (seed: "Agent loop internals"): request → stream → execute the batch of tool
// calls in order → repeat, until task_complete is accepted, a plain reply ends a run in which no
// work was done, the run is cancelled, or it fails. Every state change is an event, applied to
// the Conversation through the same reducer a rebuild uses, then handed to `onEvent`.
import type { AgentEvent } from '@h/contracts';
import { effectiveThinking, getModelInfo, isModelError, type ChatMessage, type ModelUsage, type ToolCall, type ToolDefinition } from '@h/llm';
import { MemoryOutputStore, newRunToolState, ToolRegistry, type OutputStore, type RunToolState } from '@h/tools';
import { compactionFor, planCompaction, type CompactionSettings } from './compaction';
import { estimateMessagesTokens, estimateToolsTokens } from './context-estimate';
import { Conversation } from './conversation';
import { buildGuidance, buildSystemPrompt, ItrSelector } from './prompt/itr';
import type { AgentRunOptions, AgentRunResult, AgentRunStatus } from './agent-run.types';
import { ToolBatch, type BatchOutcome } from './tool-batch';
import { UsageMeter } from './usage-meter';
import { WorkspaceContextTracker } from './workspace-context/workspace-context';

export const DEFAULT_MAX_STEPS = 50;
/** Plain replies after work was done that get a reminder before the run fails. */
const MAX_FINAL_REPLY_REMINDERS = 2;
/** Whole-step retries when a stream breaks after output reached us (the provider will not retry then). */
const MAX_STREAM_RESTARTS = 1;

export const FINAL_REPLY_REMINDER =
  'Tools were used in this task, so finish with write_summary and then task_complete (both may go in one response). A plain-text reply only ends tasks that needed no tools.';

class RunCancelled extends Error {}

/**
 * Why the host stopped a run, when that is not a person's cancel: passed as the abort signal's
 * reason (`controller.abort(new RunStop(code, message))`), it ends the run as failed with that
 * code and message instead of cancelled (e.g. the team's budget is spent).
 */
export class RunStop extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RunStop';
  }
}

export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  return new AgentRun(options).run();
}

class AgentRun {
  private readonly conversation: Conversation;
  private readonly tools: ToolRegistry;
  private readonly signal: AbortSignal;
  private readonly meter: UsageMeter;
  private readonly itr = new ItrSelector();
  private readonly compaction: CompactionSettings;
  /** The locks of this run, taken from the conversation once the run's message is in it (see start). */
  private toolState: RunToolState = newRunToolState();
  private readonly outputs: OutputStore;
  private systemMessage!: ChatMessage;
  private readonly contextWindow: number;
  /** The tools this run offers: the prompt names no others. */
  private readonly offered: ReadonlySet<string>;
  private toolsTokens = 0;
  /** Requests made by this segment; the limit itself counts the whole run (conversation.stepsSinceMessage). */
  private segmentSteps = 0;
  private workDone = false;
  private reminders = 0;
  private sinkMs = 0;
  private readonly context: WorkspaceContextTracker | null;
  private readonly batch: ToolBatch;

  constructor(private readonly o: AgentRunOptions) {
    this.conversation = o.conversation ?? new Conversation();
    this.tools = o.tools ?? new ToolRegistry();
    this.signal = o.signal ?? new AbortController().signal;
    const info = o.modelInfo ?? getModelInfo(o.model);
    this.meter = new UsageMeter(info);
    this.offered = new Set(this.tools.definitions().map((t) => t.name));
    this.outputs = o.outputs ?? new MemoryOutputStore();
    this.contextWindow = info.contextWindow;
    // Thresholds follow the model's window; explicit settings (tests, benchmarks) override them.
    this.compaction = compactionFor(this.contextWindow, o.compaction);
    const c = this.conversation;
    this.context = o.workspaceContext
      ? new WorkspaceContextTracker(o.workspace, o.workspaceContext, () => ({ instructions: c.contextInstructions, tree: c.contextTree }))
      : null;
    this.batch = new ToolBatch({
      options: o,
      tools: this.tools,
      signal: this.signal,
      outputs: this.outputs,
      offered: this.offered,
      itr: this.itr,
      state: () => this.toolState,
      emit: (event) => this.emit(event),
    });
  }

  async run(): Promise<AgentRunResult> {
    try {
      const resumed = await this.start();
      if (resumed.length > 0) {
        const outcome = await this.afterBatch(await this.batch.execute(resumed));
        if (outcome) return outcome;
      }
      const maxSteps = this.o.maxSteps ?? DEFAULT_MAX_STEPS;
      // The whole run counts, across pauses and restarts; the segment counter only guards the loop.
      while (this.steps() < maxSteps && this.segmentSteps < maxSteps) {
        this.segmentSteps++;
        const outcome = await this.step();
        if (outcome) return outcome;
      }
      return this.fail('step_limit', `Stopped after ${this.steps()} model requests without task_complete (step limit ${maxSteps}).`);
    } catch (err) {
      if (err instanceof RunCancelled || this.signal.aborted) return this.cancelled();
      return this.fail('internal_error', `Agent loop error: ${(err as Error).message}`);
    }
  }

  /** Emits the run's opening events; returns the open calls a resumed run must execute first. */
  private async start(): Promise<ToolCall[]> {
    const c = this.conversation;
    const resumed = this.o.userMessage === undefined ? c.openCalls() : [];
    if (resumed.length === 0) c.closeOpenCalls();
    // A resumed run that already used tools must still finish with a summary, not plain text.
    if (resumed.length > 0 || (this.o.userMessage === undefined && c.workSinceMessage)) this.workDone = true;
    for (const m of c.messages) this.itr.observeMessage(m);
    if (this.o.userMessage !== undefined) this.itr.observe(this.o.userMessage);
    // The session's first run fixes the system prompt; later runs reuse it byte for byte. A
    // sub-agent's is its profile's and the always-on chunks, whatever its task (see profilePrompt).
    const systemChunkIds = c.systemChunkIds ?? (this.o.profilePrompt !== undefined ? new ItrSelector().selected() : this.itr.selected());
    await this.emit({ type: 'run.started', data: { model: this.o.model, thinking: effectiveThinking(this.o.modelInfo ?? this.o.model, this.o.thinking), systemChunkIds } });
    const base = buildSystemPrompt(c.systemChunkIds ?? systemChunkIds, this.o.workspace.root, this.offered);
    this.systemMessage = { role: 'system', content: this.o.profilePrompt !== undefined ? `${this.o.profilePrompt}\n\n${base}` : base };
    this.toolsTokens = estimateToolsTokens(this.tools.definitions());
    if (this.o.userMessage !== undefined) await this.emit({ type: 'message.user', data: { content: this.o.userMessage } });
    if (this.o.guidance) await this.emit({ type: 'prompt.guidance', data: { chunkIds: [], content: this.o.guidance } });
    // A run's first segment (nothing answered since the person's message) opens with what changed
    // in the workspace's instructions and tree; a resumed segment has that in its log already.
    if (this.context && resumed.length === 0 && c.stepsSinceMessage === 0) await this.emitContext(await this.context.opening().catch(() => null));
    // Remembered facts follow, on the same first segment only (a resumed segment has them logged).
    const memory = this.o.memory;
    if (memory?.content && resumed.length === 0 && c.stepsSinceMessage === 0) {
      await this.emit({ type: 'prompt.guidance', data: { chunkIds: [], content: memory.content, memoryIds: memory.ids } });
    }
    // The locks come from the run's own events (the conversation folds them), so a run resumed
    // after a pause or a lost worker keeps its summary, todos and problems, and a new message
    // starts with none.
    this.toolState = { todos: c.todos, summary: c.summary, problems: c.problems, completed: false };
    return resumed;
  }

  /** One model request and its tool calls; returns the result when the run ends. */
  private async step(): Promise<AgentRunResult | null> {
    const t0 = performance.now();
    this.sinkMs = 0;
    this.checkCancelled();
    await this.compactIfNeeded();
    await this.appendNewGuidance();
    await this.appendReviewNotes();

    const model = await this.requestModel();
    const modelMs = model.ms;
    if (model.outcome) return model.outcome;
    const message = model.message;
    const calls = message.toolCalls ?? [];
    let toolMs = 0;
    let outcome: AgentRunResult | null = null;
    if (calls.length === 0) {
      outcome = await this.onPlainReply(message);
    } else {
      this.workDone = true;
      const batch = await this.batch.execute(calls);
      toolMs = batch.toolMs;
      outcome = await this.afterBatch(batch);
      if (!outcome && this.context) await this.emitContext(await this.context.afterCalls(calls).catch(() => null));
    }
    const totalMs = performance.now() - t0;
    this.o.onStepTiming?.({
      step: this.steps(), totalMs, modelMs, toolMs, sinkMs: this.sinkMs,
      engineMs: Math.max(0, totalMs - modelMs - toolMs - this.sinkMs),
    });
    return outcome;
  }

  // Instructions and the tree go after what the model has seen (the prefix cache is kept). A
  // failure to read them costs the model that context, never the run.
  private async emitContext(guidance: Awaited<ReturnType<WorkspaceContextTracker['opening']>>): Promise<void> {
    if (guidance) await this.emit({ type: 'prompt.guidance', data: { chunkIds: [], content: guidance.content, workspaceContext: guidance.workspaceContext } });
  }

  private async compactIfNeeded(): Promise<void> {
    const plan = planCompaction(this.conversation.messages, this.systemMessage.content ?? '', this.compaction);
    if (plan) await this.emit({ type: 'compaction', data: plan });
  }

  // Newly triggered ITR chunks go after the cached prefix, as a message at the end, never into
  // the system prompt: rewriting early bytes would throw away the provider's prefix cache.
  private async appendNewGuidance(): Promise<void> {
    const included = this.conversation.includedChunkIds();
    const fresh = this.itr.selected().filter((id) => !included.has(id));
    if (fresh.length > 0) await this.emit({ type: 'prompt.guidance', data: { chunkIds: fresh, content: buildGuidance(fresh, this.offered) } });
  }

  // A reject or revert made while the run works: told in this request, not the next run's first
  // message. Guidance goes at the end, after what the model has already seen (prefix cache kept).
  private async appendReviewNotes(): Promise<void> {
    const notes = (await this.o.reviewNotes?.().catch(() => [])) ?? [];
    if (!notes.length) return;
    await this.emit({ type: 'prompt.guidance', data: { chunkIds: [], content: notes.map((n) => n.text).join('\n'), changeIds: notes.flatMap((n) => n.changeIds) } });
  }

  private async requestModel(): Promise<
    { ms: number; outcome: AgentRunResult; message?: undefined } | { ms: number; outcome?: undefined; message: ChatMessage }
  > {
    let ms = 0;
    for (let attempt = 0; ; attempt++) {
      const partial = { text: '' };
      const started = performance.now();
      try {
        const { message, finishReason, usage, waitedMs } = await this.stream(partial);
        ms += waitedMs;
        await this.emit({
          type: 'message.assistant',
          data: { content: message.content, reasoningContent: message.reasoningContent ?? null, toolCalls: message.toolCalls, finishReason },
        });
        const cost = this.meter.add(usage);
        await this.emit({
          type: 'usage',
          data: {
            request: usage ?? { promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0 },
            costUsd: cost,
            totals: this.meter.snapshot(),
            contextTokens: this.contextTokens(),
            contextWindow: this.contextWindow,
          },
        });
        return { ms, message };
      } catch (err) {
        ms += performance.now() - started;
        if (this.signal.aborted || (isModelError(err) && err.code === 'cancelled')) {
          // Keep what the user already saw; a half-streamed tool call is dropped (never run).
          if (partial.text) await this.emit({ type: 'message.assistant', data: { content: partial.text, finishReason: 'cancelled' } });
          return { ms, outcome: await this.cancelled() };
        }
        const retryable = isModelError(err) && err.retryable;
        if (retryable && attempt < MAX_STREAM_RESTARTS) {
          await this.emit({ type: 'error', data: { code: 'model_stream_restarted', message: `Model stream broke, retrying the request: ${(err as Error).message}` } });
          continue;
        }
        const code = isModelError(err) ? `model_${err.code}` : 'model_error';
        const attempts = isModelError(err) ? ` after ${err.attempts} attempt(s)` : '';
        return { ms, outcome: await this.fail(code, `The model provider failed${attempts}: ${(err as Error).message}`) };
      }
    }
  }

  // Streams one response; time spent waiting on the provider is measured separately from ours.
  private async stream(partial: { text: string }) {
    const request = {
      model: this.o.model,
      messages: [this.systemMessage, ...this.conversation.messages],
      // The registry's frozen definitions: the same bytes, in the same order, on every request.
      tools: this.tools.definitions() as ToolDefinition[],
      thinking: this.o.thinking,
      maxTokens: this.o.maxTokens,
      signal: this.signal,
      headers: this.o.requestHeaders,
    };
    const iterator = this.o.provider.stream(request)[Symbol.asyncIterator]();
    let waitedMs = 0;
    let usage: ModelUsage | undefined;
    try {
      for (;;) {
        const t = performance.now();
        const next = await iterator.next();
        waitedMs += performance.now() - t;
        if (next.done) throw new Error('model stream ended without a final message');
        const ev = next.value;
        if (this.signal.aborted) throw new RunCancelled();
        if (ev.type === 'text') {
          partial.text += ev.delta;
          await this.emit({ type: 'text.delta', data: { delta: ev.delta } });
        } else if (ev.type === 'thinking') {
          await this.emit({ type: 'thinking.delta', data: { delta: ev.delta } });
        } else if (ev.type === 'usage') {
          usage = ev.usage;
        } else if (ev.type === 'done') {
          return { message: ev.message, finishReason: ev.finishReason, usage, waitedMs };
        }
      }
    } finally {
      // Stops the HTTP stream when we leave early (cancel, error).
      await iterator.return?.().catch(() => undefined);
    }
  }

  private async onPlainReply(message: ChatMessage): Promise<AgentRunResult | null> {
    // The seed's final-reply rule: plain text ends the task only when no work was done (or when
    // the tools to finish otherwise are not offered: no reminder may name a phantom tool).
    if (!this.workDone || !this.offered.has('task_complete') || !this.offered.has('write_summary')) return this.done(message.content ?? '');
    if (this.reminders >= MAX_FINAL_REPLY_REMINDERS) {
      return this.fail('no_completion', 'The model kept replying in plain text after doing work, without write_summary and task_complete.');
    }
    this.reminders++;
    await this.emit({ type: 'message.user', data: { content: FINAL_REPLY_REMINDER, synthetic: true } });
    return null;
  }

  private async afterBatch(batch: BatchOutcome): Promise<AgentRunResult | null> {
    if (batch.pendingCall) return this.result('paused', { pendingCall: batch.pendingCall, waitingFor: batch.waitingFor });
    if (this.toolState.completed) return this.done(null);
    if (this.signal.aborted) return this.cancelled();
    return null;
  }

  private contextTokens(): number {
    return estimateMessagesTokens(this.conversation.messages, this.systemMessage.content ?? '') + this.toolsTokens;
  }

  /** Model requests of the whole run so far. */
  private steps(): number {
    return this.conversation.stepsSinceMessage;
  }

  private checkCancelled(): void {
    if (this.signal.aborted) throw new RunCancelled();
  }

  private async done(reply: string | null): Promise<AgentRunResult> {
    const summary = this.toolState.summary;
    await this.emit({ type: 'run.done', data: { summary, reply, usage: this.meter.snapshot() } });
    return this.result('done', { summary, reply });
  }

  private async fail(code: string, message: string): Promise<AgentRunResult> {
    await this.emit({ type: 'run.failed', data: { code, message, usage: this.meter.snapshot() } });
    return this.result('failed', { error: { code, message } });
  }

  private async cancelled(): Promise<AgentRunResult> {
    this.conversation.closeOpenCalls();
    const stop: unknown = this.signal.reason;
    if (stop instanceof RunStop) return this.fail(stop.code, stop.message);
    await this.emit({ type: 'run.cancelled', data: { usage: this.meter.snapshot() } });
    return this.result('cancelled', {});
  }

  private result(status: AgentRunStatus, extra: Partial<AgentRunResult>): AgentRunResult {
    return { status, summary: null, reply: null, usage: this.meter.snapshot(), steps: this.steps(), conversation: this.conversation, ...extra };
  }

  private async emit(event: AgentEvent): Promise<void> {
    this.conversation.apply(event);
    const t = performance.now();
    await this.o.onEvent(event);
    this.sinkMs += performance.now() - t;
  }
}
