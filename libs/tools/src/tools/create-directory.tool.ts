import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { assertNotSecret } from './guards';

const input = params({ path: p.string() });

export const createDirectoryTool: AgentTool<typeof input.zod._output> = {
  name: 'create_directory',
  description: 'Create a directory (and parents).',
  category: 'write',
  parameters: input.json,
  input: input.zod,
  async execute({ path }, { workspace }) {
    assertNotSecret(path, workspace.root);
    await workspace.mkdir(path);
    return { text: `Created directory ${path}`, data: { path } };
  },
};
