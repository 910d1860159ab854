import { params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';
import { plural } from './guards';

const input = params({});

export const taskCompleteTool: AgentTool<typeof input.zod._output> = {
  name: 'task_complete',
  description: 'Finish the task. Needs an accepted write_summary, no open todos, no errors from read_problems.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute(_input, { state }) {
    if (!state.summary) throw new ToolError('Cannot complete: call write_summary first (both may go in one response)');
    const open = state.todos.filter((t) => t.status === 'pending' || t.status === 'in_progress');
    if (open.length > 0) {
      throw new ToolError(`Cannot complete: ${plural(open.length, 'todo')} still open: ${open.map((t) => t.content).join('; ')}`);
    }
    if (state.problems && state.problems.errorCount > 0) {
      throw new ToolError(
        `Cannot complete: ${plural(state.problems.errorCount, 'error')} still present. Fix them, run read_problems again, then task_complete.`,
      );
    }
    state.completed = true;
    return { text: 'Task complete', data: { summary: state.summary } };
  },
};
