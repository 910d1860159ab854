import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { assertNotSecret } from './guards';

const input = params({ path: p.string() });

export const deleteFileTool: AgentTool<typeof input.zod._output> = {
  name: 'delete_file',
  description: 'Delete a file or directory (recursively).',
  category: 'delete',
  parameters: input.json,
  input: input.zod,
  async execute({ path }, { workspace }) {
    assertNotSecret(path, workspace.root);
    const st = await workspace.stat(path);
    await workspace.remove(path, { recursive: true });
    return { text: `Deleted ${st?.type === 'directory' ? 'directory ' : ''}${path}`, data: { path } };
  },
};
