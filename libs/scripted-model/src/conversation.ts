import { createHash } from 'node:crypto';
import { messageText, type WireRequest } from './expectations';

/** What the server remembers per conversation between requests. */
export interface ConversationState {
  key: string;
  /** Unique per conversation; ends every tool-call id it answers with, so the next request finds it. */
  tag: string;
  /** First-turn requests of this conversation still open (a concurrent one is another conversation). */
  openFirstTurns: number;
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
 * Concurrent agent runs must not share a cursor. A client may name its conversation with the
 * x-conversation-id header (harnesses do); a client that does not (H's worker: provider requests
 * carry no test-only headers) is told apart by the tool-call ids this server answered it with (see
 * continuedConversation), and before its first tool call by its scenario and first user message.
 */
export function conversationKey(header: string | undefined, scenario: string | null, body: WireRequest, subject = firstUserMessage(body)): string {
  if (header) return `header:${header}`;
  // `subject`: what tells the conversation apart; a sub-agent's is its task (agents.ts).
  const digest = createHash('sha256').update(`${scenario ?? '(demo)'}\n${subject}`).digest('hex');
  return `auto:${digest.slice(0, 16)}`;
}

export function newConversation(key: string, scenario: string | null, tag: string): ConversationState {
  return { key, tag, openFirstTurns: 0, scenario, cursor: 0, attempts: new Map(), reasoningCallIds: new Set() };
}

const TAG = /_(c\d+)$/;

/** The conversation whose tagged tool-call ids the request carries back (newest first), if any. */
export function continuedConversation(body: WireRequest, byTag: ReadonlyMap<string, ConversationState>): ConversationState | undefined {
  const messages = body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) continue;
    for (const call of m.tool_calls as Array<{ id?: string }>) {
      const tag = TAG.exec(call.id ?? '')?.[1];
      const state = tag ? byTag.get(tag) : undefined;
      if (state) return state;
    }
  }
  return undefined;
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
