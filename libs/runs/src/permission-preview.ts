// What a call waiting for approval would do, computed by the worker before it asks (the sandbox is
// at hand): the unified diff of a write or edit against the file as it is now, or the exact
// command line. The permission card shows it; the decision may replace the input.
import { createTwoFilesPatch } from 'diff';
import type { PermissionPreview, Workspace } from '@h/contracts';
import { lineCounts, readSide, textSide, workspaceRelative } from '@h/tools';
import { applyExactEdit } from '@h/workspace-fs';

/** Larger proposed diffs are cut (the card says so); the input itself is always shown whole. */
const PREVIEW_MAX_CHARS = 200_000;
const COMMAND_TOOLS = new Set(['run_command', 'run_in_terminal']);

export async function permissionPreview(toolName: string, input: unknown, workspace: Workspace, maxBytes: number): Promise<PermissionPreview | undefined> {
  if (typeof input !== 'object' || input === null) return undefined;
  const args = input as Record<string, unknown>;
  if (COMMAND_TOOLS.has(toolName) && typeof args.command === 'string') return { kind: 'command', command: args.command };
  if (toolName !== 'write_file' && toolName !== 'edit_file') return undefined;
  if (typeof args.path !== 'string') return undefined;
  try {
    const before = await readSide(workspace, args.path, { maxBytes });
    if (before.directory) return { kind: 'unavailable', reason: `${args.path} is a directory` };
    if (before.exists && before.content === null) return { kind: 'unavailable', reason: `${args.path} is ${before.binary ? 'binary' : 'too large to compare'}` };
    let after: string;
    if (toolName === 'write_file') {
      if (typeof args.content !== 'string') return undefined;
      after = args.content;
    } else {
      if (typeof args.old_string !== 'string' || typeof args.new_string !== 'string') return undefined;
      const edit = applyExactEdit(before.content ?? '', args.old_string, args.new_string, args.replace_all === true);
      if (!edit.ok) return { kind: 'unavailable', reason: `the edit does not apply (${edit.reason.replace('_', ' ')})` };
      after = edit.text;
    }
    const path = workspaceRelative(workspace.root, args.path);
    const counts = lineCounts(before, textSide(after, { maxBytes: Number.MAX_SAFE_INTEGER }));
    let diff = createTwoFilesPatch(before.exists ? `a/${path}` : '/dev/null', `b/${path}`, before.content ?? '', after, undefined, undefined, { context: 3 });
    if (diff.length > PREVIEW_MAX_CHARS) diff = `${diff.slice(0, PREVIEW_MAX_CHARS)}\n… (diff cut at ${PREVIEW_MAX_CHARS} characters)`;
    return { kind: 'diff', path, diff, ...counts };
  } catch (err) {
    return { kind: 'unavailable', reason: (err as Error).message };
  }
}
