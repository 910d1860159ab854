// How undoing agent changes is planned: newest first, each checked against what the workspace
// holds at that point (the sandbox's files, then the effect of the undo steps before it), so a
// whole run is either undone completely or not touched at all. A file someone changed since the
// agent wrote it is a conflict; a side recorded without content cannot be written back.
import { createHash } from 'node:crypto';
import type { AgentChange, AgentChangeSide } from '@h/contracts';

/** A path in the workspace: nothing, a directory, or a file (its bytes when they could be read). */
export interface PathState {
  kind: 'none' | 'file' | 'dir';
  data?: Buffer;
  size?: number;
}

export type RestoreStep =
  | { op: 'write'; path: string; content: string; ifSha256: string | null | undefined }
  | { op: 'delete'; path: string }
  | { op: 'move'; from: string; to: string };

type Change = Pick<AgentChange, 'id' | 'kind' | 'path' | 'fromPath' | 'before' | 'after'>;

export type RestorePlan<C extends Change> =
  | { ok: true; steps: { change: C; step: RestoreStep }[] }
  | { ok: false; problem: 'conflict' | 'not_restorable'; change: C; path: string; current: PathState; reason: string };

export const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

function sideState(side: AgentChangeSide): PathState {
  if (!side.exists) return { kind: 'none' };
  if (side.directory) return { kind: 'dir' };
  if (side.content !== null) return { kind: 'file', data: Buffer.from(side.content, 'utf8'), size: side.bytes };
  return { kind: 'file', size: side.bytes };
}

/** Whether the workspace still holds what the agent left (by bytes; by size where no text was kept). */
export function holds(state: PathState, side: AgentChangeSide): boolean {
  if (!side.exists) return state.kind === 'none';
  if (side.directory) return state.kind === 'dir';
  if (state.kind !== 'file') return false;
  if (side.content !== null) return state.data !== undefined && state.data.equals(Buffer.from(side.content, 'utf8'));
  return state.size === side.bytes;
}

/** `changes` newest first; `read` answers the sandbox's state of a path (each path read once). */
export async function planRestore<C extends Change>(changes: C[], read: (path: string) => Promise<PathState>): Promise<RestorePlan<C>> {
  const sim = new Map<string, PathState>();
  const at = async (path: string) => {
    if (!sim.has(path)) sim.set(path, await read(path));
    return sim.get(path) as PathState;
  };
  const steps: { change: C; step: RestoreStep }[] = [];
  for (const change of changes) {
    const current = await at(change.path);
    const refuse = (problem: 'conflict' | 'not_restorable', reason: string, path = change.path, state = current): RestorePlan<C> => ({ ok: false, problem, change, path, current: state, reason });
    if (!holds(current, change.after)) {
      return refuse('conflict', current.kind === 'none' ? `${change.path} was deleted since the agent changed it` : `${change.path} changed since the agent wrote it`);
    }
    const { before, after } = change;
    if (change.kind === 'rename') {
      const from = change.fromPath ?? '';
      const there = await at(from);
      if (there.kind !== 'none') return refuse('conflict', `${from} exists again, so ${change.path} cannot be renamed back`, from, there);
      steps.push({ change, step: { op: 'move', from: change.path, to: from } });
      sim.set(from, current);
      sim.set(change.path, { kind: 'none' });
      continue;
    }
    if (change.kind === 'create') {
      steps.push({ change, step: { op: 'delete', path: change.path } });
      sim.set(change.path, { kind: 'none' });
      continue;
    }
    // modify and delete write the earlier text back; only a side kept as text can be.
    if (before.content === null) {
      const what = before.directory ? 'a directory' : before.binary ? 'binary' : 'larger than FILE_CHANGE_MAX_BYTES';
      return refuse('not_restorable', `the earlier ${change.path} was ${what}, so its content was not recorded`);
    }
    const ifSha256 = change.kind === 'delete' ? null : after.content !== null ? sha256(after.content) : current.data ? sha256(current.data) : undefined;
    steps.push({ change, step: { op: 'write', path: change.path, content: before.content, ifSha256 } });
    sim.set(change.path, sideState(before));
  }
  return { ok: true, steps };
}
