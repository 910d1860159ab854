// One response's tool calls, run in order (seed: "Agent loop internals"): each asks `authorize`
// first (a call that needs a decision pauses the run there), then runs with its tool.start and
// tool.end events, its output spilled when oversize and its file changes recorded for review.
import { TOOL_IMAGE_MAX_BASE64, type AgentEvent, type AgentTodo } from '@h/contracts';
import type { ToolCall } from '@h/llm';
import type { OutputStore, RunToolState, StoredOutputRef, ToolContext, ToolRegistry, ToolResult } from '@h/tools';
import { tracingEnabled, withSpan } from '@h/telemetry';
import type { AgentRunOptions, AgentRunResult } from './agent-run.types';
import type { ItrSelector } from './prompt/itr';
import { spillIfOversize } from './spill';

const CANCELLED_RESULT = 'Cancelled: the run was stopped before this call ran.';
const SKIPPED_AFTER_COMPLETE = 'Skipped: task_complete was already accepted in this response.';

/** How a batch ended: the time its tools took, and the call it stopped at when one must wait. */
export interface BatchOutcome {
  toolMs: number;
  pendingCall?: ToolCall;
  waitingFor?: AgentRunResult['waitingFor'];
}

/** What the batch shares with its run (agent-run.ts): the run's options, tools, locks and event sink. */
export interface ToolBatchDeps {
  options: AgentRunOptions;
  tools: ToolRegistry;
  signal: AbortSignal;
  outputs: OutputStore;
  /** The tools this run offers (read_command_output decides whether a spilled output says how to read it). */
  offered: ReadonlySet<string>;
  itr: ItrSelector;
  /** The run's locks now (the run replaces them when it starts). */
  state: () => RunToolState;
  emit: (event: AgentEvent) => Promise<void>;
}

/** Two argument texts that parse to the same value (a re-serialised, unedited input is not an edit). */
function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return a === b;
  }
}

export class ToolBatch {
  constructor(private readonly d: ToolBatchDeps) {}

  /** Runs a batch in order; stops at a call that needs a permission decision. */
  async execute(calls: ToolCall[]): Promise<BatchOutcome> {
    let toolMs = 0;
    for (const call of calls) {
      if (this.d.signal.aborted) {
        await this.endTool(call, { text: CANCELLED_RESULT, isError: true }, 0);
        continue;
      }
      if (this.d.state().completed) {
        await this.endTool(call, { text: SKIPPED_AFTER_COMPLETE, isError: true }, 0);
        continue;
      }
      const tool = this.d.tools.get(call.name);
      let args = call.arguments;
      let edited = false;
      if (tool && this.d.options.authorize) {
        const decision = await this.d.options.authorize({ call, category: tool.category, ...(tool.approval ? { approval: tool.approval } : {}) });
        if (decision.behavior === 'ask') return { toolMs, pendingCall: call, waitingFor: 'permission' };
        if (decision.behavior === 'wait') return { toolMs, pendingCall: call, waitingFor: 'delegation' };
        if (decision.behavior === 'deny') {
          const why = decision.message ? `: ${decision.message}` : '';
          await this.endTool(call, { text: `Denied by the user${why}. Do not retry it unchanged.`, isError: true }, 0);
          continue;
        }
        if (decision.updatedArguments !== undefined) {
          edited = !sameJson(decision.updatedArguments, call.arguments);
          args = decision.updatedArguments;
        }
      }
      await this.d.emit({
        type: 'tool.start',
        data: { toolCallId: call.id, name: call.name, arguments: args, category: tool?.category ?? null, ...(edited ? { editedByUser: true } : {}) },
      });
      const t = performance.now();
      // Traced, the call's span is the parent of the sandbox RPCs it makes (libs/sandbox
      // SandboxClient); untraced, nothing stands between the loop and the tool. Tool metrics are
      // counted from the tool.end events by the worker (libs/runs run-telemetry.ts).
      const result = tracingEnabled() ? await this.tracedTool(call, args) : await this.d.tools.run(call.name, args, this.toolContext(call.id));
      const ms = performance.now() - t;
      toolMs += ms;
      await this.endTool(call, result, ms);
      await this.recordChanges(call, result);
    }
    return { toolMs };
  }

  private tracedTool(call: ToolCall, args: string): Promise<ToolResult> {
    return withSpan(`tool ${call.name}`, { 'h.tool': call.name, 'h.tool_call_id': call.id }, async (span) => {
      const r = await this.d.tools.run(call.name, args, this.toolContext(call.id));
      if (r.isError) span.setAttribute('h.tool_error', true);
      return r;
    });
  }

  private async endTool(call: ToolCall, raw: ToolResult, durationMs: number): Promise<void> {
    const spilled = await spillIfOversize(raw.text, this.d.outputs, `${call.name} ${call.arguments}`.slice(0, 200), {
      callId: call.id,
      readable: this.d.offered.has('read_command_output'),
    });
    const result = spilled?.text ?? raw.text;
    // The log keeps the locator of the full text, never the text itself: the model saw `result`,
    // and read_command_output reads the rest from the store.
    const output: StoredOutputRef | undefined = spilled?.output ?? raw.output;
    this.d.itr.observe(call.name);
    this.d.itr.observe(result);
    await this.d.emit({
      type: 'tool.end',
      data: {
        toolCallId: call.id,
        name: call.name,
        result,
        isError: raw.isError ?? false,
        durationMs: Math.round(durationMs),
        ...(output ? { outputId: output.id, outputLabel: output.label, outputBytes: output.bytes, outputTruncated: output.truncated } : {}),
        ...(raw.data !== undefined ? { data: raw.data } : {}),
        // Kept in the log so the conversation (and the image the model saw) rebuilds from it.
        ...(raw.image && !raw.isError && raw.image.data.length <= TOOL_IMAGE_MAX_BASE64 ? { image: raw.image } : {}),
      },
    });
    if (raw.isError) return;
    if (call.name === 'write_todos') await this.d.emit({ type: 'todos.updated', data: { todos: this.d.state().todos as AgentTodo[] } });
    const summary = this.d.state().summary;
    if (call.name === 'write_summary' && summary) await this.d.emit({ type: 'summary.written', data: { summary } });
  }

  /** The call's file changes, stored for review; each gets its `file.changed` event. */
  private async recordChanges(call: ToolCall, result: ToolResult): Promise<void> {
    const recorder = this.d.options.fileChanges;
    if (!recorder || result.isError || !result.changes?.length) return;
    for (const c of await recorder.record(call.id, result.changes)) {
      await this.d.emit({
        type: 'file.changed',
        data: { changeId: c.id, toolCallId: c.toolCallId, kind: c.kind, path: c.path, fromPath: c.fromPath, added: c.added, removed: c.removed, binary: c.binary, tooLarge: c.tooLarge },
      });
    }
  }

  private toolContext(callId?: string): ToolContext {
    return {
      workspace: this.d.options.workspace,
      signal: this.d.signal,
      outputs: this.d.outputs,
      callId,
      state: this.d.state(),
      diagnostics: this.d.options.diagnostics,
      ...(this.d.options.fileChanges ? { changes: { maxBytes: this.d.options.fileChanges.maxBytes } } : {}),
      terminals: this.d.options.terminals,
      browser: this.d.options.browser,
      graph: this.d.options.graph,
      memory: this.d.options.memoryStore,
      delegation: this.d.options.delegation,
      caller: this.d.options.caller,
      sessionQueries: this.d.options.sessionQueries,
      emit: (event) => this.d.emit(event),
    };
  }
}
