// delegate_task and delegate_parallel (seed: Multi-Agent Delegation). The worker starts the
// sub-agents (child runs) before such a call runs and parks the run without a worker until they
// end (libs/runs delegation.service.ts); when it resumes, the call runs and reports what they
// returned. So a call here only reads outcomes: it never waits.
import { AGENT_PROFILE_NAMES, AGENT_PROFILES, DELEGATION_LIMITS, type AgentProfileName, type DelegationOutcome } from '@h/contracts';
import { z } from 'zod';
import { p, params } from '../tool-params';
import { ToolError, type AgentTool, type ToolContext, type ToolResult } from '../tool.types';

// Every byte of these definitions goes out on every request of the main agent: the profile names
// are listed once (delegate_task's enum), delegate_parallel points at them.
const taskInput = params({ task: p.string('All the sub-agent will know of the task'), agent_type: p.enum(AGENT_PROFILE_NAMES) });
const parallelInput = params({
  tasks: p.array(
    p.object({ task: p.string(), agent_type: { zod: z.enum(AGENT_PROFILE_NAMES), json: { type: 'string', description: 'as in delegate_task' }, optional: false } }),
    `At most ${DELEGATION_LIMITS.maxParallel}`,
  ),
});

export interface DelegationRequest {
  profile: AgentProfileName;
  task: string;
}

/**
 * What a delegate call asks for, or why it cannot run (then the call runs and answers the error).
 * The worker asks this before the call runs, to start the sub-agents.
 */
export function delegationRequests(name: string, rawArguments: string): DelegationRequest[] | { error: string } | null {
  if (name !== 'delegate_task' && name !== 'delegate_parallel') return null;
  let args: unknown;
  try {
    args = JSON.parse(rawArguments || '{}');
  } catch (e) {
    return { error: `Invalid JSON arguments for ${name}: ${(e as Error).message}` };
  }
  const parsed = (name === 'delegate_task' ? taskInput.zod : parallelInput.zod).safeParse(args);
  if (!parsed.success) return { error: `Invalid arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}` };
  const items = name === 'delegate_task' ? [parsed.data as { task: string; agent_type: AgentProfileName }] : (parsed.data as { tasks: { task: string; agent_type: AgentProfileName }[] }).tasks;
  const refused = refusal(items);
  return refused ? { error: refused } : items.map((i) => ({ profile: i.agent_type, task: i.task.trim() }));
}

/** Why these tasks cannot be delegated (the limits zod does not check), or null. */
function refusal(items: { task: string }[]): string | null {
  if (items.length === 0) return 'delegate_parallel needs at least one task';
  if (items.length > DELEGATION_LIMITS.maxParallel) return `delegate_parallel takes at most ${DELEGATION_LIMITS.maxParallel} tasks (got ${items.length}); split them over several calls`;
  if (items.some((i) => !i.task.trim())) return 'every task needs instructions';
  if (items.some((i) => i.task.length > DELEGATION_LIMITS.maxTaskChars)) return `a task is limited to ${DELEGATION_LIMITS.maxTaskChars} characters`;
  return null;
}

/** One outcome as the parent reads it: "[Code Search Agent] Completed." and the bounded report. */
export function formatOutcome(o: DelegationOutcome): string {
  const label = AGENT_PROFILES[o.profile]?.label ?? o.profile;
  if (o.status === 'completed') return `[${label}] Completed.\n${o.result}`;
  if (o.status === 'cancelled') return `[${label}] Cancelled before it finished.${o.result ? `\n${o.result}` : ''}`;
  return `[${label}] Failed${o.error ? ` (${o.error.code}): ${o.error.message}` : '.'}${o.result ? `\n${o.result}` : ''}`;
}

async function report(ctx: ToolContext, single: boolean, items: { task: string }[]): Promise<ToolResult> {
  const refused = refusal(items);
  if (refused) throw new ToolError(refused);
  if (!ctx.delegation || !ctx.callId) throw new ToolError('Sub-agents are not available in this run.');
  const outcomes = await ctx.delegation.outcomes(ctx.callId);
  if (!outcomes) throw new ToolError('No sub-agent was started for this call.');
  const data = { outcomes: outcomes.map(({ runId, profile, status, error }) => ({ runId, profile, status, error })) };
  const failed = outcomes.filter((o) => o.status !== 'completed').length;
  if (single) return { text: formatOutcome(outcomes[0]), isError: failed > 0, data };
  const head = `${outcomes.length} sub-agent${outcomes.length === 1 ? '' : 's'} ended: ${outcomes.length - failed} completed${failed ? `, ${failed} did not` : ''}.`;
  // One child's failure is part of the result, not an error of the call: the others' work stands.
  return { text: [head, ...outcomes.map((o, i) => `[${i + 1}] ${formatOutcome(o)}`)].join('\n\n'), data };
}

export const delegateTaskTool: AgentTool<typeof taskInput.zod._output> = {
  name: 'delegate_task',
  description:
    'Hand a sub-task to a sub-agent of that profile, with its own context; you pause until it reports. Browser work only via "browser".',
  category: 'read',
  parameters: taskInput.json,
  input: taskInput.zod,
  execute: (input, ctx) => report(ctx, true, [input]),
};

export const delegateParallelTool: AgentTool<typeof parallelInput.zod._output> = {
  name: 'delegate_parallel',
  description: 'Like delegate_task for independent sub-tasks at once; one failing does not stop the others.',
  category: 'read',
  parameters: parallelInput.json,
  input: parallelInput.zod,
  execute: (input, ctx) => report(ctx, false, input.tasks),
};

export const DELEGATE_TOOLS: readonly AgentTool[] = [delegateTaskTool, delegateParallelTool];
