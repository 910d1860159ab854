import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { MISSING_SIDE, readSide, workspaceRelative } from '../file-changes/file-change-capture';
import { assertNotSecret } from './guards';

const input = params({ path: p.string() });

export const deleteFileTool: AgentTool<typeof input.zod._output> = {
  name: 'delete_file',
  description: 'Delete a file or directory (recursively).',
  category: 'delete',
  parameters: input.json,
  input: input.zod,
  async execute({ path }, { workspace, changes }) {
    assertNotSecret(path, workspace.root);
    const st = await workspace.stat(path);
    const before = changes && st ? await readSide(workspace, path, changes) : null;
    await workspace.remove(path, { recursive: true });
    const change = before && { kind: 'delete' as const, path: workspaceRelative(workspace.root, path), fromPath: null, before, after: MISSING_SIDE };
    return { text: `Deleted ${st?.type === 'directory' ? 'directory ' : ''}${path}`, data: { path }, ...(change ? { changes: [change] } : {}) };
  },
};
