import { compileUserPattern, filterLines, PATTERN_SYNTAX_HINT, PatternError, type LinearPattern } from '@h/patterns';
import { p, params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';

const DEFAULT_LIMIT = 200;
const MAX_LINE_CHARS = 500;

const input = params({
  cmd_id: p.integer('N from [cmd #N]', 1),
  offset: p.optional(p.integer('First line (1-based)', 1)),
  limit: p.optional(p.integer('Max lines; default 200', 1)),
  filter: p.optional(p.string('Regex (RE2: no backreferences or lookaround); only matching lines')),
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
    const re = filter ? compileFilter(filter) : null;
    const all = entry.text.replace(/\n$/, '').split('\n').map((text, i) => ({ n: i + 1, text }));
    const scan = re ? await filterLines(all.map((l) => l.text), re) : null;
    const pool = scan ? scan.matches.map((i) => all[i]) : all;
    const page = pool.slice(offset - 1, offset - 1 + limit);
    const body = page
      .map((l) => `${l.n}\t${l.text.length > MAX_LINE_CHARS ? `${l.text.slice(0, MAX_LINE_CHARS)}…` : l.text}`)
      .join('\n');
    let scope = `${all.length} lines`;
    if (scan) {
      scope = scan.complete
        ? `${pool.length} of ${all.length} lines match /${filter}/`
        : `${pool.length} matches of /${filter}/ in lines 1-${scan.scanned} of ${all.length} (search stopped at its time budget; narrow the pattern)`;
    }
    const range = page.length ? `, showing ${offset}-${offset + page.length - 1}` : ', nothing in this range';
    return {
      text: `[cmd #${cmd_id}] ${entry.label}: ${scope}${range}\n${body}`.trimEnd(),
      data: { cmdId: cmd_id, total: pool.length, shown: page.length, ...(scan && !scan.complete ? { partial: true } : {}) },
    };
  },
};

function compileFilter(filter: string): LinearPattern {
  try {
    return compileUserPattern(filter, { ignoreCase: true });
  } catch (e) {
    if (e instanceof PatternError) throw new ToolError(`invalid filter: ${e.message}`);
    throw new ToolError(`invalid filter (${PATTERN_SYNTAX_HINT})`);
  }
}
