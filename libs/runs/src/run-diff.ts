// The unified diff of what a run changed, from the before/after sides the run job recorded
// (libs/changes, AgentChangeRepository). One section per file, net of the run's steps (three edits
// of one file are one section; a file created then renamed is one new file), in git's format so
// `git apply` takes it. Changes someone rejected or reverted are left out: their earlier content
// is back. A side without text (binary, over FILE_CHANGE_MAX_BYTES) gives git's "Binary files"
// line, which says the file changed without pretending to know how.
import { structuredPatch } from 'diff';
import type { AgentChangeSide, AgentChangeStatus } from '@h/contracts';

export interface DiffableChange {
  kind: 'create' | 'modify' | 'delete' | 'rename';
  path: string;
  fromPath: string | null;
  status: AgentChangeStatus;
  before: AgentChangeSide;
  after: AgentChangeSide;
}

/** The changes still in effect (nobody rejected or reverted them). */
export function inEffect<T extends { status: AgentChangeStatus }>(changes: T[]): T[] {
  return changes.filter((c) => c.status === 'applied' || c.status === 'accepted');
}

interface NetChange {
  /** Where the file was before the run's first step on it. */
  fromPath: string;
  /** Where it is after the run. */
  toPath: string;
  before: AgentChangeSide;
  after: AgentChangeSide;
}

/** Folds the run's steps (oldest first) into one before/after per file, keyed by where it ends up. */
function netChanges(changes: DiffableChange[]): NetChange[] {
  const byPath = new Map<string, NetChange>();
  for (const change of inEffect(changes)) {
    const source = change.kind === 'rename' && change.fromPath ? change.fromPath : change.path;
    const earlier = byPath.get(source);
    byPath.delete(source);
    byPath.set(change.path, { fromPath: earlier?.fromPath ?? source, toPath: change.path, before: earlier?.before ?? change.before, after: change.after });
  }
  return [...byPath.values()];
}

function fileSection({ fromPath, toPath, before, after }: NetChange): string {
  const existed = before.exists && !before.directory;
  const exists = after.exists && !after.directory;
  if (!existed && !exists) return '';
  const renamed = existed && exists && fromPath !== toPath;
  const sameText = existed && exists && before.content !== null && before.content === after.content;
  if (sameText && !renamed) return '';
  const a = existed ? fromPath : toPath;
  const b = exists ? toPath : fromPath;
  let head = `diff --git a/${a} b/${b}\n`;
  if (!existed) head += 'new file mode 100644\n';
  else if (!exists) head += 'deleted file mode 100644\n';
  else if (renamed) head += `similarity index ${sameText ? 100 : 50}%\nrename from ${fromPath}\nrename to ${toPath}\n`;
  if (sameText) return head;
  const oldText = existed ? before.content : '';
  const newText = exists ? after.content : '';
  if (oldText === null || newText === null) return `${head}Binary files ${existed ? `a/${a}` : '/dev/null'} and ${exists ? `b/${b}` : '/dev/null'} differ\n`;
  const patch = structuredPatch(a, b, oldText, newText, '', '', { context: 3 });
  let out = `${head}--- ${existed ? `a/${a}` : '/dev/null'}\n+++ ${exists ? `b/${b}` : '/dev/null'}\n`;
  for (const hunk of patch.hunks) {
    out += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n`;
    for (const line of hunk.lines) out += `${line}\n`;
  }
  return out;
}

/** An empty range names the line before it (git's `-0,0`; jsdiff counts from the line after); a count of one is left out. */
function range(start: number, lines: number): string {
  if (lines === 0) return `${start - 1},0`;
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

/** The run's changes (oldest first) as one unified diff; empty when nothing is left changed. */
export function runDiff(changes: DiffableChange[]): string {
  return netChanges(changes).map(fileSection).join('');
}
