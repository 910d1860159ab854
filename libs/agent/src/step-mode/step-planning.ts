// Step-by-step mode, phase 1 run by the agent loop itself: one run of runAgent that offers only
// the planning write_todos (step-plan.ts) and at most STEP_PLAN_MAX_ATTEMPTS model requests. Its
// own end events are not the run's end (the steps come next), so they are kept from the caller;
// the caller ends the run when planning fails or is cancelled.
import { STEP_PLAN_MAX_ATTEMPTS, type AgentEvent } from '@h/contracts';
import { ToolRegistry } from '@h/tools';
import { runAgent } from '../agent-run';
import type { AgentRunOptions, AgentRunResult } from '../agent-run.types';
import { STEP_PLANNING_GUIDANCE, stepPlanTool } from './step-plan';
import type { StepModeState } from './step-state';

export type PlanningOutcome =
  | { status: 'locked'; steps: string[] }
  /** `code`: an engine code (`step_plan_invalid`, `model_*`, ...) the worker maps to an API code. */
  | { status: 'failed'; code: string; message: string }
  | { status: 'cancelled' };

const PLANNING_TOOLS = new ToolRegistry([stepPlanTool]);
const RUN_END_TYPES: ReadonlySet<AgentEvent['type']> = new Set(['run.done', 'run.failed', 'run.cancelled']);

/**
 * Plans the run (or carries a planning cut off by a restart on: `state` is the run's log so far)
 * and, when the server accepts the plan, appends the locked `step.plan`.
 */
export async function planSteps(
  options: Omit<AgentRunOptions, 'tools' | 'maxSteps' | 'guidance'>,
  state: StepModeState,
): Promise<{ outcome: PlanningOutcome; result: AgentRunResult }> {
  let locked: string[] | null = null;
  const result = await runAgent({
    ...options,
    tools: PLANNING_TOOLS,
    maxSteps: STEP_PLAN_MAX_ATTEMPTS,
    guidance: state.guided ? undefined : STEP_PLANNING_GUIDANCE,
    onEvent: async (event) => {
      if (RUN_END_TYPES.has(event.type)) return;
      if (event.type === 'tool.end' && event.data.name === 'write_todos' && !event.data.isError) {
        locked = (event.data.data as { todos: { content: string }[] }).todos.map((t) => t.content);
      }
      await options.onEvent(event);
    },
  });
  const steps = locked as string[] | null;
  if (steps) {
    await options.onEvent({ type: 'step.plan', data: { steps: steps.map((content) => ({ content })) } });
    return { outcome: { status: 'locked', steps }, result };
  }
  if (result.status === 'cancelled') return { outcome: { status: 'cancelled' }, result };
  if (result.status === 'failed' && result.error && result.error.code !== 'step_limit') {
    return { outcome: { status: 'failed', code: result.error.code, message: result.error.message }, result };
  }
  const last = lastRefusal(result) ?? state.lastRefusal;
  const message = last
    ? `No acceptable plan after ${STEP_PLAN_MAX_ATTEMPTS} attempts; the last one was refused: ${last}`
    : 'The model answered without writing a plan with write_todos.';
  return { outcome: { status: 'failed', code: 'step_plan_invalid', message }, result };
}

function lastRefusal(result: AgentRunResult): string | null {
  const tool = [...result.conversation.messages].reverse().find((m) => m.role === 'tool' && m.name === 'write_todos');
  return tool?.content ?? null;
}
