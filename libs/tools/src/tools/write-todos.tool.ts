import { TODO_STATUSES } from '@h/contracts';
import { p, params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';

const STATUSES = TODO_STATUSES;

const input = params({
  todos: p.array(p.object({ content: p.string(), status: p.enum(STATUSES) }), 'The whole list, replacing the previous one'),
});

export const writeTodosTool: AgentTool<typeof input.zod._output> = {
  name: 'write_todos',
  description: 'Create or update the task list for multi-step work.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ todos }, { state }) {
    if (todos.some((t) => !t.content.trim())) throw new ToolError('every todo needs non-empty content');
    state.todos = todos.map((t) => ({ content: t.content.trim(), status: t.status }));
    const counts = STATUSES.map((s) => [s, todos.filter((t) => t.status === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s.replace('_', ' ')}`);
    return { text: `Todos updated (${counts.join(', ') || 'empty'})`, data: { todos: state.todos } };
  },
};
