import { WorkspaceError } from '@h/contracts';
import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';
import { assertNotSecret } from './guards';
import { listDirectory } from './list-files.tool';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
/** Larger files are refused (TOO_LARGE): a model pages through a file, it never needs it whole. */
export const READ_FILE_MAX_BYTES = 10 * 1024 * 1024;
/**
 * Bytes of file text one call returns (~5k tokens), well under the 50 KB spill threshold: a long
 * file is read in pages by line instead of being cut to a head and tail preview.
 */
export const READ_FILE_BUDGET_BYTES = 20_000;

const input = params({
  path: p.string(),
  offset: p.optional(p.integer('First line (1-based)', 1)),
  limit: p.optional(p.integer('Max lines', 1)),
});

const count = (n: number) => n.toLocaleString('en-US');

export const readFileTool: AgentTool<typeof input.zod._output> = {
  name: 'read_file',
  description: 'Read a file with line numbers (or list a directory). Long files come in pages: offset, limit. Read before editing.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ path, offset = 1, limit = DEFAULT_LIMIT }, { workspace }) {
    assertNotSecret(path, workspace.root);
    // One round trip for a file (the common case): a directory is known by the read's refusal.
    let bytes: Uint8Array;
    try {
      bytes = await workspace.readFile(path, { maxBytes: READ_FILE_MAX_BYTES });
    } catch (e) {
      if (e instanceof WorkspaceError && e.code === 'IS_DIRECTORY') return listDirectory(workspace, path, false);
      throw e;
    }
    if (Buffer.from(bytes.subarray(0, 8000)).includes(0)) {
      return { text: `${path} is a binary file (${bytes.length} bytes)`, data: { path, binary: true } };
    }
    const lines = Buffer.from(bytes).toString('utf8').split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const total = lines.length;
    if (offset > total) {
      return { text: `${path} has ${count(total)} lines; offset ${count(offset)} is past the end`, isError: true, data: { path, lines: total } };
    }
    // Whole lines until the line limit or the byte budget, always at least one (clipped) line.
    const out: string[] = [];
    let used = 0;
    let budgetHit = false;
    for (let n = offset; n <= total && out.length < limit; n++) {
      const line = lines[n - 1];
      const entry = `${n}\t${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`;
      const size = Buffer.byteLength(entry, 'utf8') + 1;
      if (out.length > 0 && used + size > READ_FILE_BUDGET_BYTES) {
        budgetHit = true;
        break;
      }
      out.push(entry);
      used += size;
    }
    const end = offset - 1 + out.length;
    const why = budgetHit ? `, ${Math.round(READ_FILE_BUDGET_BYTES / 1000)} KB per call` : '';
    const more = end < total ? `\n(lines ${count(offset)}-${count(end)} of ${count(total)}${why}; call read_file with offset=${end + 1} to read on)` : '';
    return { text: (out.join('\n') || '(empty file)') + more, data: { path, lines: total, from: offset, to: end } };
  },
};
