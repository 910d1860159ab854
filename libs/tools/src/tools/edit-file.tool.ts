import { p, params } from '../tool-params';
import { offers, ToolError, type AgentTool } from '../tool.types';
import { assertNotSecret } from './guards';

const input = params({
  path: p.string(),
  old_string: p.string('Exact text to replace, whitespace included'),
  new_string: p.string(),
  replace_all: p.optional(p.boolean('Replace every occurrence')),
});

export const editFileTool: AgentTool<typeof input.zod._output> = {
  name: 'edit_file',
  description: 'Replace old_string with new_string in a file; send only the lines that change.',
  category: 'write',
  parameters: input.json,
  input: input.zod,
  async execute({ path, old_string, new_string, replace_all = false }, ctx) {
    const { workspace } = ctx;
    assertNotSecret(path, workspace.root);
    if (old_string === '') throw new ToolError(`old_string is empty${offers(ctx, 'write_file') ? '; use write_file to create a file' : ''}`);
    if (old_string === new_string) throw new ToolError('old_string and new_string are identical');
    const text = await workspace.readTextFile(path);
    const count = text.split(old_string).length - 1;
    if (count === 0) {
      const loose = text.replace(/\s+/g, ' ').includes(old_string.replace(/\s+/g, ' ').trim());
      throw new ToolError(
        `old_string not found in ${path}${loose ? ' (it matches if whitespace is ignored: copy indentation exactly)' : offers(ctx, 'read_file') ? '; read_file first' : ''}`,
      );
    }
    if (count > 1 && !replace_all) {
      throw new ToolError(`old_string occurs ${count} times in ${path}; add surrounding lines or set replace_all`);
    }
    const line = text.slice(0, text.indexOf(old_string)).split('\n').length;
    const updated = replace_all ? text.split(old_string).join(new_string) : text.replace(old_string, () => new_string);
    await workspace.writeFile(path, updated);
    const what = replace_all && count > 1 ? `${count} occurrences` : `line ${line}`;
    return { text: `Edited ${path} (${what})`, data: { path, replacements: replace_all ? count : 1, line } };
  },
};
