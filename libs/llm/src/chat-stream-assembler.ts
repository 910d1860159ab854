import type { ChatMessage, ModelStreamEvent, ModelUsage, ToolCall } from './model-provider';

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
}

// Loose shapes on purpose: DeepSeek adds fields (reasoning_content, prompt_cache_*) that the
// OpenAI SDK types do not know, and other OpenAI-compatible hosts omit some.
interface RawToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}
interface RawChunk {
  choices?: Array<{
    delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: RawToolCallDelta[] | null } | null;
    finish_reason?: string | null;
  }>;
  usage?: RawUsage | null;
}
export interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_cache_hit_tokens?: number;
  prompt_cache_miss_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export function parseUsage(raw: RawUsage): ModelUsage {
  const promptTokens = raw.prompt_tokens ?? 0;
  // DeepSeek reports its own cache fields; plain OpenAI-compatible hosts report cached_tokens.
  const hit = raw.prompt_cache_hit_tokens ?? raw.prompt_tokens_details?.cached_tokens ?? 0;
  const miss = raw.prompt_cache_miss_tokens ?? Math.max(0, promptTokens - hit);
  const usage: ModelUsage = {
    promptTokens,
    completionTokens: raw.completion_tokens ?? 0,
    cacheHitTokens: hit,
    cacheMissTokens: miss,
  };
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * Turns OpenAI-format stream chunks into ModelStreamEvents and assembles the final assistant
 * message. Tool-call deltas are keyed by their `index`: ids and names come in the first
 * fragment, arguments arrive split over any number of later ones.
 */
export class ChatStreamAssembler {
  private text = '';
  private reasoning = '';
  private readonly calls = new Map<number, PendingToolCall>();
  private finishReason: string | null = null;
  private sawFinishReason = false;
  private usage: ModelUsage | undefined;

  /** Whether a choice carried a finish_reason (a stream without one was cut off). */
  get finished(): boolean {
    return this.sawFinishReason;
  }

  push(chunk: unknown): ModelStreamEvent[] {
    const raw = chunk as RawChunk;
    const events: ModelStreamEvent[] = [];
    for (const choice of raw.choices ?? []) {
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) {
        this.reasoning += delta.reasoning_content;
        events.push({ type: 'thinking', delta: delta.reasoning_content });
      }
      if (delta.content) {
        this.text += delta.content;
        events.push({ type: 'text', delta: delta.content });
      }
      (delta.tool_calls ?? []).forEach((part, position) => this.pushToolCall(part, position, events));
      if (choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        this.sawFinishReason = true;
      }
    }
    if (raw.usage) {
      this.usage = parseUsage(raw.usage);
      events.push({ type: 'usage', usage: this.usage });
    }
    return events;
  }

  /** Ends the stream: names any call that never got one, and returns the `done` event. */
  finish(): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    for (const [index, call] of this.calls) {
      if (!call.started) this.start(index, call, events);
    }
    return [...events, { type: 'done', finishReason: this.finishReason, message: this.message() }];
  }

  message(): ChatMessage {
    const toolCalls: ToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]) => ({ id: c.id, name: c.name, arguments: c.arguments }));
    const message: ChatMessage = {
      role: 'assistant',
      content: this.text.length > 0 || toolCalls.length === 0 ? this.text : null,
    };
    if (this.reasoning.length > 0) message.reasoningContent = this.reasoning;
    if (toolCalls.length > 0) message.toolCalls = toolCalls;
    return message;
  }

  private pushToolCall(part: RawToolCallDelta, position: number, events: ModelStreamEvent[]): void {
    const index = part.index ?? position;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '', started: false };
      this.calls.set(index, call);
    }
    if (part.id) call.id = part.id;
    if (part.function?.name) call.name += part.function.name;
    const args = part.function?.arguments ?? '';
    call.arguments += args;
    if (!call.started) {
      // Announce the call once its name is known; arguments seen before that go out with it.
      if (call.name) this.start(index, call, events);
      return;
    }
    if (args) events.push({ type: 'tool_call_delta', index, argumentsDelta: args });
  }

  private start(index: number, call: PendingToolCall, events: ModelStreamEvent[]): void {
    if (!call.id) call.id = `call_${index}`;
    call.started = true;
    events.push({ type: 'tool_call_start', index, id: call.id, name: call.name });
    if (call.arguments) events.push({ type: 'tool_call_delta', index, argumentsDelta: call.arguments });
  }
}
