import { validateSummary } from '../summary-validator';
import { p, params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';

const input = params({
  summary: p.string('Markdown: ### Changes Made, ### Verification, ### Outcome (+ ### Todo Progress if todos)'),
});

export const writeSummaryTool: AgentTool<typeof input.zod._output> = {
  name: 'write_summary',
  description: 'Record the final summary of work done (required before task_complete; may be batched with it).',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ summary }, { state }) {
    const problems = validateSummary(summary, state.todos);
    if (problems.length > 0) {
      throw new ToolError(
        `Summary rejected:\n- ${problems.join('\n- ')}\nUse:\n### Changes Made\n- path: what changed\n### Verification\n- check: result\n### Outcome\n- what was accomplished` +
          (state.todos.length ? '\n### Todo Progress\n- item: status' : ''),
      );
    }
    state.summary = summary.trim();
    return { text: 'Summary recorded', data: { summary: state.summary } };
  },
};
