// Automatic capture (seed: autoCapturePreference): explicit preferences in the person's own
// message become pref-* memories without a tool call. Precision over recall: a pattern must be a
// first-person or standing instruction ("I prefer …", "from now on use …", "let's always use …",
// "always/never use …" opening a sentence); questions, conditionals, reported speech, quoted and
// code text are never captured.
import { MEMORY_LIMITS } from '@h/contracts';
import { normalizeKey } from './memory-key';

export interface CapturedPreference {
  key: string;
  content: string;
}

const MAX_CAPTURES = 3;
const MIN_OBJECT = 2;
const MAX_OBJECT = 200;

const PATTERNS: readonly RegExp[] = [
  /^(?:please,? )?(?:note that )?i (?:really |strongly |generally |usually |always )?prefer (?<what>.+)$/i,
  /^(?:and |also,? |ok(?:ay)?,? )?from now on,? (?:please )?(?:always )?(?<what>(?:use|write|answer|reply|respond|name|call|run|keep|put|format|indent|avoid|prefer|never|don't|do not) .+)$/i,
  /^(?<what>(?:please )?(?:always |never )?(?:use|write|answer|reply|respond|format|run|avoid|prefer) .+?),? from now on$/i,
  /^let'?s (?:always )?(?<what>use .+?)(?:,? (?:from now on|going forward|for everything|everywhere))$/i,
  /^let'?s always (?<what>use .+)$/i,
  /^(?:please )?(?<what>(?:always|never) use .+)$/i,
];

// Words that make a sentence hypothetical, reported or about someone else.
const HEDGED = /\b(?:if|whether|unless|maybe|perhaps|might|would you|do you|does|did|he|she|they|someone|somebody|says|said|asked|wonders?)\b/i;

function sentences(message: string): string[] {
  const prose = message
    .replace(/```[\s\S]*?(?:```|$)/g, '\n') // fenced code
    .split('\n')
    .filter((l) => !/^\s*(?:>|\$ |#|\/\/|- \[)/.test(l)) // quotes, shell, headings, comments, checklists
    .join('\n');
  return prose
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function clean(what: string): string {
  return what.replace(/[.!;:,\s]+$/, '').replace(/\s+/g, ' ').trim();
}

function keyFor(what: string): string {
  const words = normalizeKey(what.replace(/`/g, '')).split('-').filter((w) => w.length > 1 && !STOP.has(w));
  return `pref-${words.slice(0, 5).join('-')}`.slice(0, MEMORY_LIMITS.keyChars).replace(/-$/, '');
}

const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'for', 'in', 'on', 'and', 'or', 'my', 'our', 'your', 'use', 'using', 'please', 'always', 'it', 'is', 'be', 'with', 'that', 'this', 'instead']);

/** Explicit preferences stated in `message` (at most three), as pref-* key and the person's words. */
export function autoCapturePreference(message: string): CapturedPreference[] {
  const found: CapturedPreference[] = [];
  for (const sentence of sentences(message)) {
    if (sentence.endsWith('?') || /["“”'‘’]\s*$/.test(sentence) || /^["“‘]/.test(sentence)) continue;
    const plain = sentence.replace(/[.!;]+$/, '');
    for (const pattern of PATTERNS) {
      const what = pattern.exec(plain)?.groups?.what;
      if (!what) continue;
      const before = plain.slice(0, plain.toLowerCase().indexOf(what.toLowerCase()));
      if (HEDGED.test(before) || HEDGED.test(what.split(/\s+/).slice(0, 2).join(' '))) break;
      const object = clean(what);
      if (object.length < MIN_OBJECT || object.length > MAX_OBJECT) break;
      const key = keyFor(object);
      if (key === 'pref' || found.some((f) => f.key === key)) break;
      found.push({ key, content: plain.slice(0, MEMORY_LIMITS.contentChars) });
      break;
    }
    if (found.length >= MAX_CAPTURES) break;
  }
  return found;
}
