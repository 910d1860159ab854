// Rolling history compaction (seed: Token Optimization §3). When the conversation grows past the
// seed's thresholds, a prefix of it is replaced by one bounded summary message: older plain turns
// as short quotes, older tool calls as one line each. The cut never falls inside a tool pair (an
// assistant message and its results go or stay together), and enough is cut that the next
// requests stay under the trigger instead of compacting on every step.
import type { ChatMessage } from '@h/llm';
import { COMPACTION_PREFIX } from './conversation';
import { estimateMessagesTokens, messageChars, CHARS_PER_TOKEN } from './context-estimate';

export interface CompactionSettings {
  /** Compact when the conversation has more messages than this (seed: 24). */
  triggerMessages: number;
  /** ... or when the estimate (messages + system prompt) passes this (seed: 10,000). */
  triggerTokens: number;
  /** The latest plain (user / text-only assistant) messages kept verbatim (seed: 6). */
  plainMessagesToKeep: number;
  /** Bound of the rolling summary (seed: 2,400 characters). */
  summaryCharBudget: number;
}

export const DEFAULT_COMPACTION: CompactionSettings = {
  triggerMessages: 24,
  triggerTokens: 10_000,
  plainMessagesToKeep: 6,
  summaryCharBudget: 2_400,
};

export interface CompactionPlan {
  replacedMessages: number;
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
}

const QUOTE_CHARS = 300;
const CURRENT_REQUEST_CHARS = 2_000;

function isPlain(m: ChatMessage): boolean {
  return m.role === 'user' || (m.role === 'assistant' && !m.toolCalls?.length);
}

export function planCompaction(
  messages: readonly ChatMessage[],
  systemPrompt: string,
  settings: CompactionSettings = DEFAULT_COMPACTION,
): CompactionPlan | null {
  const tokensBefore = estimateMessagesTokens(messages, systemPrompt);
  if (messages.length <= settings.triggerMessages && tokensBefore <= settings.triggerTokens) return null;

  // Keep a tail within half of each trigger, so the next requests do not trigger again at once.
  const tokenBudget = (settings.triggerTokens / 2) * CHARS_PER_TOKEN - systemPrompt.length;
  const countBudget = Math.floor(settings.triggerMessages / 2);
  let cut = messages.length;
  let chars = 0;
  let plain = 0;
  for (let i = messages.length - 1; i > 0; i--) {
    chars += messageChars(messages[i]);
    if (isPlain(messages[i])) plain++;
    if (messages[i].role === 'tool') continue; // never cut between a call and its results
    const within = chars <= tokenBudget && messages.length - i <= countBudget && plain <= settings.plainMessagesToKeep;
    if (!within && cut < messages.length) break;
    cut = i;
    if (!within) break;
  }
  // Nothing worth replacing: only an earlier summary (or nothing) lies before the cut.
  const alreadySummary = messages[0]?.content?.startsWith(COMPACTION_PREFIX) ?? false;
  if (cut <= (alreadySummary ? 1 : 0) || cut >= messages.length) return null;

  const summary = summarize(messages.slice(0, cut), messages.slice(cut), settings.summaryCharBudget);
  const after = [{ role: 'user' as const, content: summary }, ...messages.slice(cut)];
  return { replacedMessages: cut, summary, tokensBefore, tokensAfter: estimateMessagesTokens(after, systemPrompt) };
}

function summarize(old: readonly ChatMessage[], kept: readonly ChatMessage[], budget: number): string {
  const lines: string[] = [];
  let previous = '';
  const results = new Map<string, ChatMessage>();
  for (const m of old) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  for (const m of old) {
    if (m.content?.startsWith(COMPACTION_PREFIX)) {
      previous = m.content.slice(m.content.indexOf('\n') + 1);
    } else if (m.role === 'user') {
      lines.push(`User: ${quote(m.content)}`);
    } else if (m.role === 'assistant') {
      if (m.content?.trim()) lines.push(`Assistant: ${quote(m.content)}`);
      for (const call of m.toolCalls ?? []) {
        const result = results.get(call.id)?.content ?? '';
        lines.push(`- ${call.name} ${quote(call.arguments, 120)} → ${quote(result.split('\n')[0] ?? '', 100)}`);
      }
    }
  }
  // Newest lines matter most: drop from the oldest end until the summary fits its budget.
  let body = [previous, ...lines].filter(Boolean).join('\n');
  if (body.length > budget) body = `…${body.slice(body.length - budget + 1)}`;
  // The request the agent is still working on must survive even when its turn is compacted.
  const lastUser = [...old].reverse().find((m) => m.role === 'user' && !m.content?.startsWith(COMPACTION_PREFIX));
  const userStillVisible = kept.some((m) => m.role === 'user');
  const current = lastUser && !userStillVisible ? `\nCurrent request (verbatim): ${quote(lastUser.content, CURRENT_REQUEST_CHARS)}` : '';
  return `${COMPACTION_PREFIX} ${old.length} earlier messages, summarised:\n${body}${current}`;
}

function quote(text: string | null, max = QUOTE_CHARS): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
