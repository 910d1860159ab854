// Write accuracy (seed: "Persistent Memory", Write accuracy): one spelling per memory and the
// deterministic scope guard that corrects a scope the model left open.
import { MEMORY_LIMITS, type MemoryScope } from '@h/contracts';

/**
 * "Indent Style", "indent_style", "indentStyle" and " indent-style " are one memory: lower-case
 * ASCII words joined by '-', accents folded, bounded in length. Empty when nothing is left.
 */
export function normalizeKey(key: string): string {
  return key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/\.(?![a-z0-9])|(?<![a-z0-9])\./g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, MEMORY_LIMITS.keyChars)
    .replace(/-$/, '');
}

// Identity and global facts: they describe the person, whatever workspace they work in.
const USER_KEY = /^(?:(?:my|user|pref)-.+|timezone|time-zone|tz|locale|language|spoken-language|preferred-[a-z0-9.-]+|name|full-name|nickname|email|pronouns|role|job-title|editor|ide|keyboard-layout|os|operating-system|shell|communication-style|response-style|response-language|tone|verbosity)$/;
const USER_WORD = /(?:^|-)(?:timezone|locale|pronouns|preferred)(?:-|$)/;
// Codebase-specific facts: they only hold in this workspace.
const PROJECT_WORD = /(?:^|-)(?:api|auth|server|port|endpoint|database|db|schema|migrations?|routes?|build|tests?|deploy|ci|branch|env|config|package|dependency|dependencies|lint|framework|module|service|repo|repository|stack|architecture)(?:-|$)/;
const CODE_PATH = /(?:^|[\s/\\-])[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rb|go|rs|java|kt|cs|cpp|c|h|php|swift|sql|json|ya?ml|toml|prisma|vue|svelte|css|scss|html|md)\b/;

/**
 * The scope a memory belongs in when the model did not say (seed: guessScope): identity and global
 * facts go to the user, codebase facts to the project; null when the rules do not know.
 */
export function guessScope(key: string, value: string): MemoryScope | null {
  const k = normalizeKey(key);
  if (USER_KEY.test(k) || USER_WORD.test(k)) return 'user';
  if (PROJECT_WORD.test(k) || CODE_PATH.test(key) || CODE_PATH.test(value) || key.includes('/')) return 'project';
  return null;
}

/** An explicit scope wins over the guess; with neither, project memory (seed: "project"). */
export function resolveScope(explicit: MemoryScope | undefined, key: string, value: string): MemoryScope {
  return explicit ?? guessScope(key, value) ?? 'project';
}
