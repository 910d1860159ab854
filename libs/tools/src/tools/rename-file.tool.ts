import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { readSide, workspaceRelative } from '../file-changes/file-change-capture';
import { assertNotSecret } from './guards';

const input = params({ old_path: p.string(), new_path: p.string() });

export const renameFileTool: AgentTool<typeof input.zod._output> = {
  name: 'rename_file',
  description: 'Rename or move a file or directory.',
  category: 'write',
  parameters: input.json,
  input: input.zod,
  async execute({ old_path, new_path }, { workspace, changes }) {
    assertNotSecret(old_path, workspace.root);
    assertNotSecret(new_path, workspace.root);
    // A rename keeps the content: one side read serves as both.
    const side = changes ? await readSide(workspace, old_path, changes) : null;
    await workspace.rename(old_path, new_path);
    const change = side && { kind: 'rename' as const, path: workspaceRelative(workspace.root, new_path), fromPath: workspaceRelative(workspace.root, old_path), before: side, after: side };
    return { text: `Renamed ${old_path} to ${new_path}`, data: { from: old_path, to: new_path }, ...(change ? { changes: [change] } : {}) };
  },
};
