import type { Workspace } from '@h/contracts';
import { isSecretPath } from '../secret-paths';
import { p, params } from '../tool-params';
import type { AgentTool, ToolResult } from '../tool.types';
import { assertNotSecret } from './guards';

const MAX_ENTRIES = 500;
const HIDDEN_DIRS = new Set(['.git', 'node_modules']);

export async function listDirectory(ws: Workspace, path: string, recursive: boolean): Promise<ToolResult> {
  const { entries, truncated } = await ws.list(path, { recursive, maxEntries: MAX_ENTRIES * 2 });
  const shown = entries
    .filter((e) => !isSecretPath(e.path))
    .filter((e) => !e.path.split('/').slice(0, -1).some((part) => HIDDEN_DIRS.has(part)))
    .slice(0, MAX_ENTRIES);
  // Root-relative paths, like every other tool's output, so they can be passed on as they are.
  const lines = shown.map((e) => (e.type === 'directory' ? `${e.path}/` : e.path));
  const cut = truncated || shown.length < entries.filter((e) => !isSecretPath(e.path)).length;
  const text = (lines.length ? lines.join('\n') : '(empty directory)') + (cut ? `\n(truncated at ${shown.length} entries)` : '');
  return { text, data: { path, count: shown.length, truncated: cut } };
}

const input = params({
  path: p.optional(p.string('Directory; default the workspace root')),
  recursive: p.optional(p.boolean()),
});

export const listFilesTool: AgentTool<typeof input.zod._output> = {
  name: 'list_files',
  description: 'List files and directories (dirs end with /; skips .git and node_modules contents).',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ path = '.', recursive = false }, { workspace }) {
    assertNotSecret(path, workspace.root);
    return listDirectory(workspace, path, recursive);
  },
};
