// Workspace instructions (seed 003, "Workspace instructions"): AGENTS.md / CLAUDE.md at the root and
// in every directory a run works in, loaded within an explicit byte budget. What a run starts with
// is frozen for that run (it goes after the user's message, never into the cached prefix); files
// found later, changed or removed are appended as bounded messages of their own.
import { createHash } from 'node:crypto';
import type { Workspace } from '@h/contracts';

/** The file names read as instructions, in this order within a directory. */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** Default bytes of instruction text one run may add (AGENT_INSTRUCTIONS_MAX_BYTES). */
export const INSTRUCTIONS_MAX_BYTES_DEFAULT = 32 * 1024;

export interface InstructionFile {
  path: string;
  sha256: string;
  /** What the model is shown: the content, cut to the budget. */
  text: string;
  /** Bytes of the whole file. */
  bytes: number;
  truncated: boolean;
}

/** An instruction file's state against what the model was told: new or changed, or gone. */
export type InstructionChange = { kind: 'loaded'; file: InstructionFile; changed: boolean } | { kind: 'removed'; path: string };

/** The instruction files directly in `dir` ('' or '.' is the root), by their names' order. */
export async function instructionPathsIn(workspace: Workspace, dir: string): Promise<string[]> {
  const base = dir === '.' ? '' : dir;
  const { entries } = await workspace.list(base || '.', { maxEntries: 10_000 });
  const names = new Set(entries.filter((e) => e.type === 'file').map((e) => e.name));
  return INSTRUCTION_FILE_NAMES.filter((n) => names.has(n)).map((n) => (base ? `${base}/${n}` : n));
}

/** Reads one instruction file with at most `budget` bytes of it shown (null when it is gone). */
export async function readInstruction(workspace: Workspace, path: string, budget: number): Promise<InstructionFile | null> {
  let content: string;
  try {
    content = await workspace.readTextFile(path, { maxBytes: 1024 * 1024 });
  } catch {
    return null;
  }
  const buf = Buffer.from(content, 'utf8');
  const sha256 = createHash('sha256').update(buf).digest('hex');
  if (buf.length <= budget) return { path, sha256, text: content, bytes: buf.length, truncated: false };
  // Cut at a character boundary: a partial UTF-8 sequence at the end is dropped.
  const cut = buf.subarray(0, Math.max(0, budget)).toString('utf8').replace(/\uFFFD$/, '');
  return { path, sha256, text: cut, bytes: buf.length, truncated: true };
}

/** The directories from the root down to the one holding `path` ('' is the root). */
export function directoryChain(path: string): string[] {
  const parts = path.replace(/^\/?workspace\/?/, '').replace(/^\.\//, '').split('/').filter((p) => p && p !== '.');
  const dirs = [''];
  for (let i = 0; i < parts.length - 1; i++) dirs.push(parts.slice(0, i + 1).join('/'));
  return dirs;
}

export function renderInstructions(changes: readonly InstructionChange[], opening: boolean): string {
  const head = opening
    ? '[Workspace instructions] Follow each file for work in its directory and below (a deeper file wins where they differ).'
    : '[Workspace instructions, found or changed while you work] These apply from now on.';
  const blocks = changes.map((c) => {
    if (c.kind === 'removed') return `## ${c.path} (removed: its instructions no longer apply)`;
    const f = c.file;
    const note = f.truncated ? `\n[cut: ${Buffer.byteLength(f.text)} of ${f.bytes} bytes shown (instruction budget); read_file ${f.path} shows the rest]` : '';
    return `## ${f.path}${c.changed ? ' (updated)' : ''}\n${f.text.trimEnd()}${note}`;
  });
  return [head, ...blocks].join('\n\n');
}
