import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { assertNotSecret } from './guards';
import { listDirectory } from './list-files.tool';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
/** Larger files are refused (TOO_LARGE): a model pages through a file, it never needs it whole. */
export const READ_FILE_MAX_BYTES = 10 * 1024 * 1024;

const input = params({
  path: p.string(),
  offset: p.optional(p.integer('First line (1-based)', 1)),
  limit: p.optional(p.integer('Max lines', 1)),
});

export const readFileTool: AgentTool<typeof input.zod._output> = {
  name: 'read_file',
  description: 'Read a file with line numbers (or list a directory). Read before editing.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ path, offset = 1, limit = DEFAULT_LIMIT }, { workspace }) {
    assertNotSecret(path, workspace.root);
    const st = await workspace.stat(path);
    if (st?.type === 'directory') return listDirectory(workspace, path, false);
    const bytes = await workspace.readFile(path, { maxBytes: READ_FILE_MAX_BYTES });
    if (Buffer.from(bytes.subarray(0, 8000)).includes(0)) {
      return { text: `${path} is a binary file (${bytes.length} bytes)`, data: { path, binary: true } };
    }
    const lines = Buffer.from(bytes).toString('utf8').split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const start = Math.min(offset, Math.max(lines.length, 1));
    const slice = lines.slice(start - 1, start - 1 + limit);
    const body = slice
      .map((line, i) => `${start + i}\t${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`)
      .join('\n');
    const end = start - 1 + slice.length;
    const more = end < lines.length ? `\n(lines ${start}-${end} of ${lines.length}; use offset to read on)` : '';
    return { text: (body || '(empty file)') + more, data: { path, lines: lines.length } };
  },
};
