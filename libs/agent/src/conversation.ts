// The model conversation as a fold over agent events. The live loop applies every event it emits
// through this same reducer, so the messages it sends are, by construction, exactly what
// `rebuildConversation(events)` yields later from the persisted log (event sourcing).
import type { AgentEvent, AgentTodo, SessionEventData, WorkspaceContextData } from '@h/contracts';
import type { ChatMessage, ToolCall } from '@h/llm';
import type { ProblemReport } from '@h/tools';

/** Result text for a tool call that has no recorded result (crash, cancel, lost event). */
export const INTERRUPTED_RESULT = 'Error: no result was recorded for this call (the run was interrupted before it finished).';
export const COMPACTION_PREFIX = '[Compacted history]';
export const SUB_AGENT_MEMORY_HEADER = '[What H remembers about the user]';

/** Any stored event: agent events plus whatever else the session log holds (ignored here). */
export interface StoredEvent {
  type: string;
  data: unknown;
}

export class Conversation {
  readonly messages: ChatMessage[] = [];
  /** Chunks of the system prompt, fixed by the session's first run. */
  systemChunkIds: string[] | null = null;
  /** Chunks appended later as guidance messages, in order. */
  readonly guidanceChunkIds: string[] = [];
  // The run's locks, folded from its own events. A run's events follow the message a person wrote
  // for it (see orderForRebuild), so "since the last such message" is "in this run": a run resumed
  // in a new job (after a permission decision or a lost worker) keeps them, a new message starts
  // with none, and an old list can neither block task_complete nor shape a later summary.
  /** The todo list write_todos last wrote in this run. */
  todos: AgentTodo[] = [];
  /** The summary write_summary accepted in this run. */
  summary: string | null = null;
  /** The last read_problems report of this run (the problem lock); null until it ran. */
  problems: ProblemReport | null = null;
  /** Whether the model called tools in this run (the final-reply rule). */
  workSinceMessage = false;
  /** Model requests answered in this run, over all its segments (the step limit). */
  stepsSinceMessage = 0;
  /** Calls of the last assistant message that still wait for their result. */
  private readonly open = new Map<string, ToolCall>();
  /**
   * What people undid of the agent's work since its last request (rejected or reverted changes),
   * told on the next message the model has not seen yet: never by rewriting what was sent.
   */
  private pendingNotes: { changeIds: string[]; text: string }[] = [];
  /** Changes whose resolution the model was told of mid-run (`prompt.guidance` with changeIds). */
  private readonly toldChanges = new Set<string>();
  /** Instruction files the model has been shown, by path, with the content hash it saw. */
  readonly contextInstructions = new Map<string, string>();
  /** The file tree the model knows (the last full tree plus patches); null until one is sent. */
  contextTree: Set<string> | null = null;
  /** Remembered entries the model has been told (`id@version`, prompt.guidance memoryIds). */
  readonly toldMemories = new Set<string>();

  apply(event: StoredEvent): void {
    const e = event as AgentEvent;
    switch (e.type) {
      case 'run.started':
        this.systemChunkIds ??= [...e.data.systemChunkIds];
        return;
      case 'message.user':
        if (!e.data.synthetic) {
          this.summary = null;
          this.todos = [];
          this.problems = null;
          this.workSinceMessage = false;
          this.stepsSinceMessage = 0;
        }
        // A sub-agent's task: the memory subset, then its profile's earlier task/summary pairs
        // (the same bytes for every delegation of the profile: a shared cached prefix), then the task.
        if (e.data.memory) this.push({ role: 'user', content: `${SUB_AGENT_MEMORY_HEADER}\n${e.data.memory}` });
        for (const pair of e.data.prefix ?? []) {
          this.push({ role: 'user', content: pair.task });
          this.push({ role: 'assistant', content: pair.summary });
        }
        this.push({ role: 'user', content: this.withNotes(e.data.content) });
        return;
      case 'message.assistant': {
        const message: ChatMessage = { role: 'assistant', content: e.data.content };
        // A stream cut by a cancel is not an answered request.
        if (e.data.finishReason !== 'cancelled') this.stepsSinceMessage++;
        if (e.data.reasoningContent) message.reasoningContent = e.data.reasoningContent;
        if (e.data.toolCalls?.length) {
          message.toolCalls = e.data.toolCalls.map((c) => ({ ...c }));
          this.workSinceMessage = true;
        }
        this.push(message);
        for (const call of message.toolCalls ?? []) this.open.set(call.id, call);
        return;
      }
      case 'prompt.guidance':
        this.appendGuidance(e.data.content);
        this.guidanceChunkIds.push(...e.data.chunkIds);
        if (e.data.workspaceContext) this.noteContext(e.data.workspaceContext);
        for (const id of e.data.memoryIds ?? []) this.toldMemories.add(id);
        if (e.data.changeIds?.length) {
          // Told now: the same resolution waiting for the next message must not be told twice.
          for (const id of e.data.changeIds) this.toldChanges.add(id);
          this.pendingNotes = this.pendingNotes.filter((n) => !n.changeIds.every((id) => this.toldChanges.has(id)));
        }
        return;
      case 'tool.end':
        // A result whose call is not open (duplicate, or after a later message) would break the
        // API's pairing rule; the call already has its result or a synthetic one.
        if (!this.open.delete(e.data.toolCallId)) return;
        if (e.data.name === 'read_problems' && !e.data.isError) this.problems = problemReport(e.data.data) ?? this.problems;
        this.messages.push({
          role: 'tool',
          content: this.withNotes(e.data.result),
          toolCallId: e.data.toolCallId,
          name: e.data.name,
          ...(e.data.image ? { images: [e.data.image] } : {}),
        });
        return;
      case 'summary.written':
        this.summary = e.data.summary;
        return;
      case 'todos.updated':
        this.todos = e.data.todos.map((t) => ({ ...t }));
        return;
      case 'compaction':
        this.closeOpenCalls();
        this.messages.splice(0, e.data.replacedMessages, { role: 'user', content: e.data.summary });
        // What the compacted messages told of instructions and the tree may be gone: tell it again.
        this.contextInstructions.clear();
        this.contextTree = null;
        this.toldMemories.clear();
        return;
      default:
        if ((event.type as string) === 'file.change.resolved') this.noteResolved(event.data as SessionEventData<'file.change.resolved'>);
        return;
    }
  }

  private noteContext(ctx: WorkspaceContextData): void {
    for (const i of ctx.instructions ?? []) {
      if (i.removed) this.contextInstructions.delete(i.path);
      else this.contextInstructions.set(i.path, i.sha256);
    }
    if (ctx.tree?.mode === 'full') this.contextTree = new Set(ctx.tree.paths);
    else if (ctx.tree?.mode === 'patch' && this.contextTree) {
      for (const p of ctx.tree.added) this.contextTree.add(p);
      for (const p of ctx.tree.deleted) this.contextTree.delete(p);
    }
  }

  private noteResolved(data: SessionEventData<'file.change.resolved'>): void {
    const note = changeNote(data);
    if (note && !data.changeIds.every((id) => this.toldChanges.has(id))) this.pendingNotes.push({ changeIds: data.changeIds, text: note });
  }

  // A note rides on the next user message or tool result: both are new to the model, so the
  // cached prefix (everything it was sent before) stays byte for byte the same.
  private withNotes(content: string): string {
    if (!this.pendingNotes.length) return content;
    const notes = this.pendingNotes.map((n) => n.text).join('\n');
    this.pendingNotes = [];
    return `${content}\n\n${notes}`;
  }

  /** Every chunk already in front of the model (system prompt and guidance). */
  includedChunkIds(): Set<string> {
    return new Set([...(this.systemChunkIds ?? []), ...this.guidanceChunkIds]);
  }

  /** Closes calls left without results (the log ended mid-batch), keeping the pairing invariant. */
  closeOpenCalls(): void {
    for (const call of this.open.values()) {
      this.messages.push({ role: 'tool', content: INTERRUPTED_RESULT, toolCallId: call.id, name: call.name });
    }
    this.open.clear();
  }

  /** Calls still waiting for a result, in order (a run paused for a permission decision). */
  openCalls(): ToolCall[] {
    return [...this.open.values()];
  }

  // Guidance joins the newest message, which the model has not seen yet, so every byte already
  // sent stays put. Not a mid-conversation system message: DeepSeek's chat template gathers all
  // system messages into the prompt's head, which would rewrite the cached prefix. Not a new user
  // message after tool results either: that opens a new turn in the middle of a tool-calling one.
  private appendGuidance(content: string): void {
    this.closeOpenCalls();
    const last = this.messages[this.messages.length - 1];
    if (last && (last.role === 'tool' || last.role === 'user')) {
      this.messages[this.messages.length - 1] = { ...last, content: `${last.content ?? ''}\n\n${content}` };
    } else {
      this.messages.push({ role: 'user', content });
    }
  }

  private push(message: ChatMessage): void {
    this.closeOpenCalls();
    this.messages.push(message);
  }
}

/** The report a successful read_problems left in its tool.end data (see read-problems.tool). */
function problemReport(data: unknown): ProblemReport | null {
  const d = data as Partial<ProblemReport> | null | undefined;
  if (typeof d?.errorCount !== 'number' || typeof d.warningCount !== 'number') return null;
  return { errorCount: d.errorCount, warningCount: d.warningCount, source: String(d.source ?? ''), text: String(d.text ?? '') };
}

export interface RebuildOptions {
  /**
   * Leave the calls of a run that paused for a permission decision open, so that the resumed run
   * executes them (runAgent without userMessage). Otherwise they get synthetic error results.
   */
  keepOpenCalls?: boolean;
}

/** The model conversation of a session, from its persisted events alone. */
export function rebuildConversation(events: Iterable<StoredEvent>, options: RebuildOptions = {}): Conversation {
  const conversation = new Conversation();
  for (const event of events) conversation.apply(event);
  if (!options.keepOpenCalls) conversation.closeOpenCalls();
  return conversation;
}

/** Checks the API's rule: every assistant tool call is answered right after it, nothing else. */
export function pairingViolations(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') {
      problems.push(`message ${i}: tool result ${m.toolCallId} without a preceding call`);
      continue;
    }
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const expected = new Set(m.toolCalls.map((c) => c.id));
    let j = i + 1;
    for (; j < messages.length && messages[j].role === 'tool'; j++) {
      if (!expected.delete(messages[j].toolCallId ?? '')) problems.push(`message ${j}: unexpected result ${messages[j].toolCallId}`);
    }
    for (const id of expected) problems.push(`message ${i}: call ${id} has no result`);
    i = j - 1;
  }
  return problems;
}

/** What the model is told about changes a person undid; null for an accept (nothing to tell). */
export function changeNote(data: SessionEventData<'file.change.resolved'>): string | null {
  if (data.status === 'accepted') return null;
  const what = data.changes.map((c) => {
    if (c.kind === 'create') return `${c.path} (it was deleted again)`;
    if (c.kind === 'delete') return `${c.path} (it was restored)`;
    if (c.kind === 'rename') return `${c.path} (it was renamed back to ${c.fromPath})`;
    return `${c.path} (it was restored to its content before your change)`;
  });
  const verb = data.status === 'reverted' ? 'reverted your changes to' : `rejected your change${what.length > 1 ? 's' : ''} to`;
  return `[Note from H] The user ${verb} ${what.join(', ')}. Read the file again before editing it, and do not redo the change unless asked.`;
}
