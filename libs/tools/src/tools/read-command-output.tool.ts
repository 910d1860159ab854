import { p, params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';

const DEFAULT_LIMIT = 200;
const MAX_LINE_CHARS = 500;

const input = params({
  cmd_id: p.integer('N from [cmd #N]', 1),
  offset: p.optional(p.integer('First line (1-based)', 1)),
  limit: p.optional(p.integer('Max lines; default 200', 1)),
  filter: p.optional(p.string('Regex; only matching lines')),
});

export const readCommandOutputTool: AgentTool<typeof input.zod._output> = {
  name: 'read_command_output',
  description: 'Read the full output behind [cmd #N], with paging (offset, limit) and a regex filter.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ cmd_id, offset = 1, limit = DEFAULT_LIMIT, filter }, { outputs }) {
    const entry = await outputs.get(cmd_id);
    if (!entry) throw new ToolError(`No output [cmd #${cmd_id}] (unknown id or evicted)`);
    let re: RegExp | null = null;
    if (filter) {
      try {
        re = new RegExp(filter, 'i');
      } catch (e) {
        throw new ToolError(`invalid filter regex: ${(e as Error).message}`);
      }
    }
    const all = entry.text.replace(/\n$/, '').split('\n').map((text, i) => ({ n: i + 1, text }));
    const pool = re ? all.filter((l) => re.test(l.text)) : all;
    const page = pool.slice(offset - 1, offset - 1 + limit);
    const body = page
      .map((l) => `${l.n}\t${l.text.length > MAX_LINE_CHARS ? `${l.text.slice(0, MAX_LINE_CHARS)}…` : l.text}`)
      .join('\n');
    const scope = re ? `${pool.length} of ${all.length} lines match /${filter}/` : `${all.length} lines`;
    const range = page.length ? `, showing ${offset}-${offset + page.length - 1}` : ', nothing in this range';
    return {
      text: `[cmd #${cmd_id}] ${entry.label}: ${scope}${range}\n${body}`.trimEnd(),
      data: { cmdId: cmd_id, total: pool.length, shown: page.length },
    };
  },
};
