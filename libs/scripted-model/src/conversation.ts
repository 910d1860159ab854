import { createHash } from 'node:crypto';
import { messageText, type WireRequest } from './expectations';

/** What the server remembers per conversation between requests. */
export interface ConversationState {
  key: string;
  scenario: string | null;
  /** Index of the scenario turn the next request is answered with. */
  cursor: number;
  /** Requests seen per turn index, for faults that hit only the first N attempts. */
  attempts: Map<number, number>;
  /** The rendered prompt of the last answered request: the cache the next one can hit. */
  lastPrompt?: string;
  /** Tool-call ids answered together with reasoning_content (it must come back, as on DeepSeek). */
  reasoningCallIds: Set<string>;
}

export const CONVERSATION_HEADER = 'x-conversation-id';
export const SCENARIO_HEADER = 'x-scripted-scenario';

export function firstUserMessage(body: WireRequest): string {
  const first = (body.messages ?? []).find((m) => m.role === 'user');
  return first ? messageText(first.content) : '';
}

export function hasAssistantMessage(body: WireRequest): boolean {
  return (body.messages ?? []).some((m) => m.role === 'assistant');
}

/**
 * Concurrent agent runs must not share a cursor: a conversation is named by the client's
 * x-conversation-id header, or else by its scenario and first user message.
 */
export function conversationKey(header: string | undefined, scenario: string | null, body: WireRequest): string {
  if (header) return `header:${header}`;
  const digest = createHash('sha256').update(`${scenario ?? '(demo)'}\n${firstUserMessage(body)}`).digest('hex');
  return `auto:${digest.slice(0, 16)}`;
}

export function newConversation(key: string, scenario: string | null): ConversationState {
  return { key, scenario, cursor: 0, attempts: new Map(), reasoningCallIds: new Set() };
}

/**
 * The assistant messages that dropped reasoning_content this server sent with their tool calls;
 * DeepSeek answers such a request with HTTP 400, and so do we, so agents find the bug in tests.
 */
export function missingReasoning(body: WireRequest, state: ConversationState): string[] {
  const missing: string[] = [];
  for (const m of body.messages ?? []) {
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls) || m.reasoning_content) continue;
    for (const call of m.tool_calls as Array<{ id?: string }>) {
      if (call.id && state.reasoningCallIds.has(call.id)) missing.push(call.id);
    }
  }
  return missing;
}
