import { p, params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';

const input = params({
  index: p.optional(p.integer('0-based, oldest first; omit for all', 0)),
});

// Seed: kills only terminals the agent started (in this session); the team's own are never
// touched. It stops the agent's own processes, so it runs without asking, like the seed's.
export const killTerminalTool: AgentTool<typeof input.zod._output> = {
  name: 'kill_terminal',
  description: 'Stop terminals you started with run_in_terminal: all, or one by index.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ index }, ctx) {
    if (!ctx.terminals) throw new ToolError('This workspace has no terminals.');
    const own = await ctx.terminals.own();
    if (own.length === 0) return { text: 'No terminal started by you is running.', data: { killed: [] } };
    if (index !== undefined && index >= own.length) {
      throw new ToolError(`No terminal index=${index}; yours are ${own.map((t, i) => `${i}: \`${t.command}\``).join(', ')}.`);
    }
    const targets = index === undefined ? own.map((t, i) => ({ t, i })) : [{ t: own[index], i: index }];
    for (const { t } of targets) await ctx.terminals.close(t.id);
    return {
      text: targets.map(({ t, i }) => `Killed terminal ${i}: \`${t.command}\``).join('\n'),
      data: { killed: targets.map(({ t }) => t.id) },
    };
  },
};
