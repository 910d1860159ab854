// What a write, edit, rename or delete did to a file, captured by the tool itself (it already
// knows the path and the old text), so the caller can record it for review (diff cards, reject,
// revert). Capture is on only when the context asks for it (ToolContext.changes): tests and the
// local engine pay nothing.
import { diffLines } from 'diff';
import type { AgentChangeKind, AgentChangeSide, Workspace } from '@h/contracts';

export interface FileChangeCapture {
  kind: AgentChangeKind;
  /** Relative to the workspace root, '/'-separated (the new path of a rename). */
  path: string;
  fromPath: string | null;
  before: AgentChangeSide;
  after: AgentChangeSide;
}

export interface FileChangeCaptureOptions {
  /** Largest text kept per side; a larger or binary side is recorded without content. */
  maxBytes: number;
}

export const MISSING_SIDE: AgentChangeSide = Object.freeze({ exists: false, content: null, bytes: 0, binary: false, directory: false, tooLarge: false });

/** "src/a.ts", "./src/a.ts" and "/workspace/src/a.ts" all become "src/a.ts". */
export function workspaceRelative(root: string, path: string): string {
  let p = path.replace(/\\/g, '/');
  const prefix = root.endsWith('/') ? root : `${root}/`;
  if (p === root) return '';
  if (p.startsWith(prefix)) p = p.slice(prefix.length);
  return p
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** A text side from content the tool holds in hand (no read). */
export function textSide(content: string, options: FileChangeCaptureOptions): AgentChangeSide {
  const bytes = Buffer.byteLength(content, 'utf8');
  const tooLarge = bytes > options.maxBytes;
  return { exists: true, content: tooLarge ? null : content, bytes, binary: false, directory: false, tooLarge };
}

/** The file as it is now in the workspace (one stat, and one read when it is small enough). */
export async function readSide(workspace: Workspace, path: string, options: FileChangeCaptureOptions): Promise<AgentChangeSide> {
  const st = await workspace.stat(path);
  if (!st) return MISSING_SIDE;
  if (st.type === 'directory') return { ...MISSING_SIDE, exists: true, directory: true };
  if (st.size > options.maxBytes) return { ...MISSING_SIDE, exists: true, bytes: st.size, tooLarge: true };
  const data = await workspace.readFile(path, { maxBytes: options.maxBytes });
  const text = decodeText(data);
  if (text === null) return { ...MISSING_SIDE, exists: true, bytes: data.length, binary: true };
  return { exists: true, content: text, bytes: data.length, binary: false, directory: false, tooLarge: false };
}

/** Lines added and removed from one side to the other (0/0 when either has no text). */
export function lineCounts(before: AgentChangeSide, after: AgentChangeSide): { added: number; removed: number } {
  if (isOpaque(before) || isOpaque(after)) return { added: 0, removed: 0 };
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before.content ?? '', after.content ?? '')) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

function isOpaque(side: AgentChangeSide): boolean {
  return side.exists && side.content === null;
}

/** UTF-8 text without NUL bytes, or null (binary). */
function decodeText(data: Uint8Array): string | null {
  if (data.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
}
