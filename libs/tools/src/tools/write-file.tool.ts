import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { assertNotSecret, plural } from './guards';

const input = params({ path: p.string(), content: p.string() });

export const writeFileTool: AgentTool<typeof input.zod._output> = {
  name: 'write_file',
  description: 'Create or overwrite a file with full content. Prefer edit_file for changes.',
  category: 'write',
  parameters: input.json,
  input: input.zod,
  async execute({ path, content }, { workspace }) {
    assertNotSecret(path, workspace.root);
    const existed = (await workspace.stat(path)) !== null;
    await workspace.writeFile(path, content);
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return {
      text: `${existed ? 'Overwrote' : 'Created'} ${path} (${plural(lines, 'line')})`,
      data: { path, created: !existed, bytes: Buffer.byteLength(content) },
    };
  },
};
