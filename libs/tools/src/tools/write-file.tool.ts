import { p, params } from '../tool-params';
import { readSide, textSide, workspaceRelative } from '../file-changes/file-change-capture';
import type { AgentTool } from '../tool.types';
import { assertNotSecret, plural } from './guards';

const input = params({ path: p.string(), content: p.string() });

export const writeFileTool: AgentTool<typeof input.zod._output> = {
  name: 'write_file',
  description: 'Create or overwrite a file with full content. Prefer edit_file for changes.',
  category: 'write',
  parameters: input.json,
  input: input.zod,
  async execute({ path, content }, { workspace, changes }) {
    assertNotSecret(path, workspace.root);
    const before = changes ? await readSide(workspace, path, changes) : null;
    const existed = before ? before.exists : (await workspace.stat(path)) !== null;
    await workspace.writeFile(path, content);
    const after = changes ? textSide(content, changes) : null;
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return {
      text: `${existed ? 'Overwrote' : 'Created'} ${path} (${plural(lines, 'line')})`,
      data: { path, created: !existed, bytes: Buffer.byteLength(content) },
      ...(before && after ? { changes: [{ kind: existed ? ('modify' as const) : ('create' as const), path: workspaceRelative(workspace.root, path), fromPath: null, before, after }] } : {}),
    };
  },
};
