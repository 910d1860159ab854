import { structuredPatch } from 'diff';

// A unified diff as lines a card can colour: context, additions, removals and hunk headers.
export interface DiffLine {
  type: 'add' | 'del' | 'ctx' | 'hunk';
  text: string;
}

/** Unified lines between two texts, with `context` unchanged lines around each change. */
export function unifiedLines(before: string, after: string, context = 3): DiffLine[] {
  const patch = structuredPatch('a', 'b', before, after, '', '', { context });
  const out: DiffLine[] = [];
  for (const h of patch.hunks) {
    out.push({ type: 'hunk', text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@` });
    for (const line of h.lines) {
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      const type = line[0] === '+' ? 'add' : line[0] === '-' ? 'del' : 'ctx';
      out.push({ type, text: line.slice(1) });
    }
  }
  return out;
}

/** The lines of a unified diff text (as the permission preview carries it), headers dropped. */
export function parseUnified(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('===') || line.startsWith('---') || line.startsWith('+++') || line.startsWith('Index:') || line.startsWith('\\')) continue;
    if (line.startsWith('@@')) out.push({ type: 'hunk', text: line });
    else if (line.startsWith('+')) out.push({ type: 'add', text: line.slice(1) });
    else if (line.startsWith('-')) out.push({ type: 'del', text: line.slice(1) });
    else if (line.startsWith(' ')) out.push({ type: 'ctx', text: line.slice(1) });
  }
  return out;
}
