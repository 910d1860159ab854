// Pure parts of session search: the text query a person or the model types becomes a Postgres
// tsquery (never raw tsquery syntax: operators in the input are only separators), and hits are
// ordered by text rank weighed by recency.
import { SESSION_SEARCH_LIMITS } from '@h/contracts';

// A word: letters, digits and '_' first, then also '.', '/', '-' inside (paths, file names,
// versions stay one lexeme, as the 'simple' parser keeps them).
const WORD = /[\p{L}\p{N}_](?:[\p{L}\p{N}_./-]*[\p{L}\p{N}_])?/gu;

/**
 * `'word' & 'other':*` for the words of `text` (every word required, the last one a prefix, as a
 * person types), or null when it holds no word. Only the last word is a prefix: a prefix expands to
 * every lexeme that starts with it, which on a large log costs far more index reading than an
 * exact word (bench/session-search). Quotes make each word a literal; the pattern admits no quote
 * or backslash.
 */
export function toTsquery(text: string): string | null {
  const words = [...new Set((text.normalize('NFKC').toLowerCase().match(WORD) ?? []).slice(0, SESSION_SEARCH_LIMITS.queryMaxWords))];
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? prefixOf(w) : `'${w}'`)).join(' & ');
}

/**
 * The last word as a prefix. The parser splits a word at '_' (`parse_config` is the phrase `parse
 * <-> config`), and a `:*` on the compound would make every part a prefix (`'parse':* <-> 'conf':*`,
 * which reads every lexeme starting with "parse" from the index); only the part being typed is one.
 */
function prefixOf(word: string): string {
  const parts = word.split('_').filter(Boolean);
  if (parts.length === 0) return `'${word}':*`;
  if (parts.length === 1) return `'${parts[0]}':*`;
  return `(${parts.map((p, i) => (i === parts.length - 1 ? `'${p}':*` : `'${p}'`)).join(' <-> ')})`;
}

const DAY_MS = 86_400_000;
/** A month-old match weighs half a fresh one of the same text rank. */
const RECENCY_HALF_DAYS = 30;

/** Text rank weighed by age: what results are ordered by. */
export function score(rank: number, ts: Date, now: number): number {
  const ageDays = Math.max(0, now - ts.getTime()) / DAY_MS;
  return rank / (1 + ageDays / RECENCY_HALF_DAYS);
}

/** A deadline checked between pages (cooperative: a running page is bounded by what is left of it). */
export class SearchDeadline {
  private readonly end: number;

  constructor(
    ms: number,
    private readonly signal?: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {
    this.end = now() + ms;
  }

  /** Milliseconds left (0 when passed). */
  left(): number {
    return Math.max(0, this.end - this.now());
  }

  /** Whether the search must stop before its next page. */
  over(): boolean {
    return this.left() === 0 || (this.signal?.aborted ?? false);
  }
}

/** One line, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
