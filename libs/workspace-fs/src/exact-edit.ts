// edit_file's semantics: replace an exact string, which must occur (once, unless every occurrence
// is asked for). Failures say why, so the caller can tell the model what to do.

export type ExactEditFailure =
  | { reason: 'empty' }
  | { reason: 'unchanged' }
  /** `loose`: it would match if whitespace were ignored (indentation not copied exactly). */
  | { reason: 'not_found'; loose: boolean }
  | { reason: 'ambiguous'; count: number };

export type ExactEditResult =
  | { ok: true; text: string; replacements: number; /** 1-based line of the first replacement. */ line: number }
  | ({ ok: false } & ExactEditFailure);

export function applyExactEdit(text: string, oldString: string, newString: string, replaceAll = false): ExactEditResult {
  if (oldString === '') return { ok: false, reason: 'empty' };
  if (oldString === newString) return { ok: false, reason: 'unchanged' };
  const count = text.split(oldString).length - 1;
  if (count === 0) {
    const loose = text.replace(/\s+/g, ' ').includes(oldString.replace(/\s+/g, ' ').trim());
    return { ok: false, reason: 'not_found', loose };
  }
  if (count > 1 && !replaceAll) return { ok: false, reason: 'ambiguous', count };
  const line = text.slice(0, text.indexOf(oldString)).split('\n').length;
  // A function replacement: "$&" and friends in new text are data, not patterns.
  const updated = replaceAll ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
  return { ok: true, text: updated, replacements: replaceAll ? count : 1, line };
}
