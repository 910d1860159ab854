import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { assertNotSecret } from './guards';

const input = params({ old_path: p.string(), new_path: p.string() });

export const renameFileTool: AgentTool<typeof input.zod._output> = {
  name: 'rename_file',
  description: 'Rename or move a file or directory.',
  category: 'write',
  parameters: input.json,
  input: input.zod,
  async execute({ old_path, new_path }, { workspace }) {
    assertNotSecret(old_path, workspace.root);
    assertNotSecret(new_path, workspace.root);
    await workspace.rename(old_path, new_path);
    return { text: `Renamed ${old_path} to ${new_path}`, data: { from: old_path, to: new_path } };
  },
};
