// Rolling history compaction (seed: Token Optimization §3). When the conversation grows past the
// thresholds, a prefix of it is replaced by one bounded summary message: older plain turns as
// short quotes, older tool calls as one line each, and the files read most recently with their
// contents (so the model does not have to read them again). The cut never falls inside a tool pair
// (an assistant message and its results go or stay together), and enough is cut that the next
// requests stay under the trigger instead of compacting on every step: every compaction rewrites
// the head of the conversation, so it costs the provider's prefix cache once.
//
// The seed's figures (24 messages, 10,000 tokens) were set for a 128k-token model at most; the
// thresholds here scale with the model's context window (compactionFor), so a 1M-token model is
// not compacted at 1 % of what it can hold.
import type { ChatMessage } from '@h/llm';
import { COMPACTION_PREFIX } from './conversation';
import { estimateMessagesTokens, messageChars, CHARS_PER_TOKEN } from './context-estimate';

export interface CompactionSettings {
  /** Compact when the conversation has more messages than this. */
  triggerMessages: number;
  /** ... or when the estimate (messages + system prompt) passes this. */
  triggerTokens: number;
  /** The latest plain (user / text-only assistant) messages kept verbatim (seed: 6). */
  plainMessagesToKeep: number;
  /** Bound of the rolling summary's history lines (seed: 2,400 characters). */
  summaryCharBudget: number;
  /** Bound of the recently read file contents carried into the summary. */
  filesCharBudget: number;
}

/** The seed's thresholds, for small windows and tests. */
export const DEFAULT_COMPACTION: CompactionSettings = {
  triggerMessages: 24,
  triggerTokens: 10_000,
  plainMessagesToKeep: 6,
  summaryCharBudget: 2_400,
  filesCharBudget: 4_000,
};

/** Share of the trigger that recently read file contents may take in a summary. */
const FILES_SHARE = 0.1;

/** Share of the context window the conversation may fill before it is compacted. */
export const COMPACTION_WINDOW_SHARE = 0.5;
/** Messages allowed per 1,000 tokens of trigger (the seed's 24 per 10,000). */
const MESSAGES_PER_1K_TOKENS = 2.4;

/**
 * Thresholds for a model with `contextWindow` tokens: compact at half the window (leaving the rest
 * for the answer and the next tool results), never below the seed's figures.
 */
export function compactionFor(contextWindow: number, overrides: Partial<CompactionSettings> = {}): CompactionSettings {
  const triggerTokens = overrides.triggerTokens ?? Math.max(DEFAULT_COMPACTION.triggerTokens, Math.round(contextWindow * COMPACTION_WINDOW_SHARE));
  // The summary's parts grow with the trigger, so each stays a small share of what is kept.
  const scale = triggerTokens / DEFAULT_COMPACTION.triggerTokens;
  return {
    triggerTokens,
    triggerMessages: Math.max(DEFAULT_COMPACTION.triggerMessages, Math.round((triggerTokens / 1000) * MESSAGES_PER_1K_TOKENS)),
    plainMessagesToKeep: DEFAULT_COMPACTION.plainMessagesToKeep,
    summaryCharBudget: Math.round(DEFAULT_COMPACTION.summaryCharBudget * Math.min(Math.max(scale, 0.25), 4)),
    filesCharBudget: Math.round(Math.min(triggerTokens * CHARS_PER_TOKEN * FILES_SHARE, 64_000)),
    ...overrides,
  };
}

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

  // Keep a tail within half of each trigger (less what the summary may take), so the next
  // requests do not trigger again at once.
  const tokenBudget = (settings.triggerTokens / 2) * CHARS_PER_TOKEN - systemPrompt.length - settings.summaryCharBudget - settings.filesCharBudget;
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

  const summary = summarize(messages.slice(0, cut), messages.slice(cut), settings);
  const after = [{ role: 'user' as const, content: summary }, ...messages.slice(cut)];
  return { replacedMessages: cut, summary, tokensBefore, tokensAfter: estimateMessagesTokens(after, systemPrompt) };
}

function summarize(old: readonly ChatMessage[], kept: readonly ChatMessage[], settings: CompactionSettings): string {
  const budget = settings.summaryCharBudget;
  const lines: string[] = [];
  let previous = '';
  const results = new Map<string, ChatMessage>();
  for (const m of old) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  for (const m of old) {
    if (m.content?.startsWith(COMPACTION_PREFIX)) {
      // Its file section is rebuilt below (recentFiles), not rolled in as history.
      const files = m.content.indexOf(FILES_HEADING);
      previous = m.content.slice(m.content.indexOf('\n') + 1, files < 0 ? undefined : files);
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
  const files = recentFiles(old, kept, settings.filesCharBudget);
  return `${COMPACTION_PREFIX} ${old.length} earlier messages, summarised:\n${body}${current}${files}`;
}

const FILES_HEADING = '\nFiles read recently (contents as last read; read_file again only for other lines):';

/**
 * The latest read_file results of the compacted part, newest first, within `budget` characters:
 * a file the kept messages show again, or that was changed after it was read, is left out (its
 * text here would be stale or a duplicate). An earlier summary's file section rolls over the same way.
 */
function recentFiles(old: readonly ChatMessage[], kept: readonly ChatMessage[], budget: number): string {
  if (budget <= 0) return '';
  const reads: Array<{ path: string; text: string }> = [];
  const changed = new Set<string>();
  const seen = new Set<string>();
  for (const m of kept) for (const call of m.toolCalls ?? []) {
    const path = pathOf(call.arguments);
    if (path) seen.add(path);
  }
  const results = new Map<string, string>();
  for (const m of old) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m.content ?? '');
  // Newest first: walk the compacted part backwards.
  for (let i = old.length - 1; i >= 0; i--) {
    const m = old[i];
    if (m.content?.startsWith(COMPACTION_PREFIX)) {
      for (const f of previousFiles(m.content)) reads.push(f);
      continue;
    }
    for (const call of [...(m.toolCalls ?? [])].reverse()) {
      const path = pathOf(call.arguments);
      if (!path) continue;
      if (call.name === 'write_file' || call.name === 'edit_file' || call.name === 'delete_file' || call.name === 'rename_file') changed.add(path);
      else if (call.name === 'read_file' && !changed.has(path)) {
        const text = results.get(call.id);
        if (text && !text.startsWith('Error') && !/^\S+ is a binary file/.test(text)) reads.push({ path, text });
      }
    }
  }
  const out: string[] = [];
  let used = 0;
  for (const { path, text } of reads) {
    if (seen.has(path) || changed.has(path)) continue;
    seen.add(path);
    const entry = `\n--- ${path}\n${text}`;
    if (used + entry.length > budget) continue;
    out.push(entry);
    used += entry.length;
  }
  return out.length ? `${FILES_HEADING}${out.join('')}` : '';
}

function previousFiles(summary: string): Array<{ path: string; text: string }> {
  const at = summary.indexOf(FILES_HEADING);
  if (at < 0) return [];
  return summary
    .slice(at + FILES_HEADING.length)
    .split('\n--- ')
    .filter(Boolean)
    .map((part) => {
      const nl = part.indexOf('\n');
      return { path: part.slice(0, nl), text: part.slice(nl + 1) };
    });
}

function pathOf(args: string): string | null {
  try {
    const parsed = JSON.parse(args) as { path?: unknown; from?: unknown };
    return typeof parsed.path === 'string' ? parsed.path : typeof parsed.from === 'string' ? parsed.from : null;
  } catch {
    return null;
  }
}

function quote(text: string | null, max = QUOTE_CHARS): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
