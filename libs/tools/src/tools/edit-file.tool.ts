import { applyExactEdit } from '@h/workspace-fs';
import { p, params } from '../tool-params';
import { offers, ToolError, type AgentTool } from '../tool.types';
import { textSide, workspaceRelative } from '../file-changes/file-change-capture';
import { assertNotSecret } from './guards';
import { READ_FILE_MAX_BYTES } from './read-file.tool';

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
    const text = await workspace.readTextFile(path, { maxBytes: READ_FILE_MAX_BYTES });
    // The exact-edit rule every driver shares (@h/workspace-fs); the messages are the model's.
    const edit = applyExactEdit(text, old_string, new_string, replace_all);
    if (!edit.ok) {
      if (edit.reason === 'empty') throw new ToolError(`old_string is empty${offers(ctx, 'write_file') ? '; use write_file to create a file' : ''}`);
      if (edit.reason === 'unchanged') throw new ToolError('old_string and new_string are identical');
      if (edit.reason === 'ambiguous') throw new ToolError(`old_string occurs ${edit.count} times in ${path}; add surrounding lines or set replace_all`);
      throw new ToolError(
        `old_string not found in ${path}${edit.loose ? ' (it matches if whitespace is ignored: copy indentation exactly)' : offers(ctx, 'read_file') ? '; read_file first' : ''}`,
      );
    }
    const { line, replacements } = edit;
    const updated = edit.text;
    await workspace.writeFile(path, updated);
    const what = replacements > 1 ? `${replacements} occurrences` : `line ${line}`;
    const { changes } = ctx;
    // The text read above is the before side: no second read.
    const change = changes && { kind: 'modify' as const, path: workspaceRelative(workspace.root, path), fromPath: null, before: textSide(text, changes), after: textSide(updated, changes) };
    return { text: `Edited ${path} (${what})`, data: { path, replacements, line }, ...(change ? { changes: [change] } : {}) };
  },
};
