// Instruction-Tool Retrieval (seed: Token Optimization §1). A chunk is selected once at least
// MIN_TRIGGER_SCORE of its trigger keywords occur anywhere in the conversation (message text,
// tool call names and arguments, tool results). The selector is incremental: each message is
// scanned once, and keywords already seen are never searched for again, so a step costs
// microseconds however long the session.
//
// Unlike the ancestor, selection never rewrites the system prompt: the system prompt is fixed
// with the chunks selected for the session's first request, and chunks that trigger later are
// appended after the cached prefix, to the newest message (see Conversation.appendGuidance).
import type { ChatMessage } from '@h/llm';
import { CORE_TOOLS } from '@h/tools';
import { CHUNKS_BY_ID, MIN_TRIGGER_SCORE, PROMPT_CHUNKS, type OfferedTools, type PromptChunk } from './prompt-chunks';

interface Trigger {
  chunk: string;
  keyword: string;
  /** Extension triggers (".c") must end at a word boundary, so ".c" does not fire on ".css". */
  re: RegExp | null;
}

export class ItrSelector {
  private readonly pending: Trigger[];
  private readonly scores = new Map<string, number>();

  constructor(private readonly chunks: readonly PromptChunk[] = PROMPT_CHUNKS) {
    this.pending = chunks.flatMap((c) =>
      c.triggers.map((keyword) => ({
        chunk: c.id,
        keyword,
        re: /^\.[a-z0-9+]+$/i.test(keyword) ? new RegExp(`${keyword.replace(/[.+]/g, '\\$&')}(?![a-z0-9])`, 'i') : null,
      })),
    );
  }

  observe(text: string | null | undefined): void {
    if (!text || this.pending.length === 0) return;
    const lower = text.toLowerCase();
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const t = this.pending[i];
      if (t.re ? t.re.test(lower) : lower.includes(t.keyword)) {
        this.scores.set(t.chunk, (this.scores.get(t.chunk) ?? 0) + 1);
        this.pending.splice(i, 1);
      }
    }
  }

  observeMessage(message: ChatMessage): void {
    // Guidance H appended to a message is not conversation: its own words must not trigger chunks.
    this.observe(message.content?.split(GUIDANCE_MARKER)[0]);
    for (const call of message.toolCalls ?? []) {
      this.observe(call.name);
      this.observe(call.arguments);
    }
  }

  score(chunkId: string): number {
    return this.scores.get(chunkId) ?? 0;
  }

  /** Ids of every selected chunk (always-on ones included), in registry order. */
  selected(): string[] {
    return this.chunks.filter((c) => c.always || this.score(c.id) >= MIN_TRIGGER_SCORE).map((c) => c.id);
  }
}

/** Selection over a whole blob of text: the seed's rule as a pure function. */
export function selectChunks(blob: string, chunks: readonly PromptChunk[] = PROMPT_CHUNKS): string[] {
  const selector = new ItrSelector(chunks);
  selector.observe(blob);
  return selector.selected();
}

/** Every core tool: what a session offers unless its registry is restricted. */
export const ALL_CORE_TOOLS: OfferedTools = new Set(CORE_TOOLS.map((t) => t.name));

export function renderChunks(ids: readonly string[], offered: OfferedTools = ALL_CORE_TOOLS): string {
  return ids
    .map((id) => {
      const text = CHUNKS_BY_ID.get(id)?.text ?? '';
      return typeof text === 'string' ? text : text(offered);
    })
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The system prompt: a pure function of the chunk ids, the root and the offered tools (all fixed
 * per session), so it is byte-identical on every request of a session.
 */
export function buildSystemPrompt(chunkIds: readonly string[], workspaceRoot: string, offered: OfferedTools = ALL_CORE_TOOLS): string {
  return `${renderChunks(chunkIds, offered)}\n\nWorkspace root: ${workspaceRoot}`;
}

export const GUIDANCE_MARKER = '[H guidance, now relevant]';

/** Late guidance for chunks selected after the system prompt was fixed. */
export function buildGuidance(chunkIds: readonly string[], offered: OfferedTools = ALL_CORE_TOOLS): string {
  return `${GUIDANCE_MARKER}\n${renderChunks(chunkIds, offered)}`;
}
