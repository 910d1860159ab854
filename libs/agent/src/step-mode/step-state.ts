// Step-by-step mode's state machine, derived from the run's own events only: a worker that takes
// the run over after a restart reads the log and carries on at the step it names, never at one
// held in memory. The events: `step.plan` (the locked plan), then per step `step.begin` and
// `step.end` (see libs/contracts agent-events.ts).
import type { AgentEventData, StepEndStatus, StepStatus } from '@h/contracts';
import { STEP_PLANNING_GUIDANCE } from './step-plan';

/** A step's result as later steps see it; the full text stays in its step.end. */
export const STEP_CONTEXT_RESULT_MAX_CHARS = 1000;
/** A step.end keeps at most this much of the sub-agent's report. */
export const STEP_RESULT_MAX_CHARS = 4000;

export interface StepLogEvent {
  runId: string | null;
  type: string;
  data: unknown;
}

export interface StepRecord {
  index: number;
  content: string;
  status: StepStatus;
  /** The step's result (step.end), null until it ended. */
  result: string | null;
  /** The code-writer sub-agent run of the step, once it began. */
  childRunId: string | null;
}

export interface StepModeState {
  /** The run was asked to go step by step (its message.user says so). */
  stepMode: boolean;
  /** The locked plan; null while planning. */
  plan: string[] | null;
  steps: StepRecord[];
  /** write_todos calls of this run the server refused (planning attempts used up). */
  refusedPlans: number;
  /** The last refusal's text, for the run's failure message. */
  lastRefusal: string | null;
  /** The planning rules were already told to the model (a resumed planning does not repeat them). */
  guided: boolean;
}

export type StepAction =
  | { kind: 'plan' }
  /** Start step `index`: append step.begin with its sub-agent run. */
  | { kind: 'begin'; index: number }
  /** Step `index` began and has not ended: its sub-agent runs (or ended and its end is not recorded yet). */
  | { kind: 'await'; index: number; childRunId: string | null }
  /** Every step ended: write the wrap-up and end the run. */
  | { kind: 'wrapup' };

/** Folds the events of run `runId` (the rest of the session's log is ignored). */
export function stepModeState(events: readonly StepLogEvent[], runId: string): StepModeState {
  const state: StepModeState = { stepMode: false, plan: null, steps: [], refusedPlans: 0, lastRefusal: null, guided: false };
  for (const e of events) {
    if (e.runId !== runId) continue;
    switch (e.type) {
      case 'message.user': {
        const data = e.data as AgentEventData<'message.user'>;
        if (!data.synthetic && data.stepMode) state.stepMode = true;
        break;
      }
      case 'prompt.guidance':
        if ((e.data as AgentEventData<'prompt.guidance'>).content === STEP_PLANNING_GUIDANCE) state.guided = true;
        break;
      case 'tool.end': {
        const data = e.data as AgentEventData<'tool.end'>;
        if (state.plan === null && data.name === 'write_todos' && data.isError) {
          state.refusedPlans++;
          state.lastRefusal = data.result;
        }
        break;
      }
      case 'step.plan': {
        // Locked: a second step.plan of the same run would be a bug; the first one stands.
        if (state.plan) break;
        const data = e.data as AgentEventData<'step.plan'>;
        state.plan = data.steps.map((s) => s.content);
        state.steps = state.plan.map((content, index) => ({ index, content, status: 'pending', result: null, childRunId: null }));
        break;
      }
      case 'step.begin': {
        const data = e.data as AgentEventData<'step.begin'>;
        const step = state.steps[data.index];
        if (step && step.status === 'pending') {
          step.status = 'in_progress';
          step.childRunId = data.childRunId ?? null;
        }
        break;
      }
      case 'step.end': {
        const data = e.data as AgentEventData<'step.end'>;
        const step = state.steps[data.index];
        if (step && (step.status === 'pending' || step.status === 'in_progress')) {
          step.status = data.status;
          step.result = data.result;
          step.childRunId = data.childRunId ?? step.childRunId;
        }
        break;
      }
    }
  }
  return state;
}

/** What the run does next, in plan order: steps run one at a time. */
export function nextStepAction(state: StepModeState): StepAction {
  if (!state.plan) return { kind: 'plan' };
  for (const step of state.steps) {
    if (step.status === 'in_progress') return { kind: 'await', index: step.index, childRunId: step.childRunId };
    if (step.status === 'pending') return { kind: 'begin', index: step.index };
  }
  return { kind: 'wrapup' };
}

/** Steps not ended yet, which a stop marks skipped (in order). */
export function unfinishedSteps(state: StepModeState): StepRecord[] {
  return state.steps.filter((s) => s.status === 'pending' || s.status === 'in_progress');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The task of step `index`'s sub-agent: that step only, plus what the earlier steps came to (a
 * failed one says so, so the step can work around it). Nothing else of the session goes in.
 */
export function stepTask(state: StepModeState, index: number): string {
  const step = state.steps[index];
  if (!step) throw new Error(`no step ${index} in the plan`);
  const lines = [`You are doing step ${index + 1} of ${state.steps.length} of a locked plan. Do this step, and only this step:`, '', step.content];
  const earlier = state.steps.slice(0, index).filter((s) => s.status !== 'pending' && s.status !== 'in_progress');
  if (earlier.length) {
    lines.push('', 'Results of the earlier steps:');
    for (const s of earlier) lines.push(`- Step ${s.index + 1} (${s.content}) — ${s.status}: ${clip(s.result ?? '', STEP_CONTEXT_RESULT_MAX_CHARS)}`);
  }
  lines.push('', 'When the step is done (or cannot be done), end with a short plain-text report of what you changed and verified.');
  return lines.join('\n');
}

/** The step.end result for a sub-agent's report, bounded. */
export function stepResult(report: string): string {
  return clip(report.trim() || '(no report)', STEP_RESULT_MAX_CHARS);
}

const STATUS_MARK: Record<StepEndStatus, string> = { completed: 'completed', failed: 'FAILED', skipped: 'skipped' };

/** The run's wrap-up (the seed's allStepResults): every step with its status and result. */
export function stepWrapUp(state: StepModeState): string {
  const done = state.steps.filter((s) => s.status === 'completed').length;
  const failed = state.steps.filter((s) => s.status === 'failed').length;
  const skipped = state.steps.filter((s) => s.status === 'skipped').length;
  const counts = [`${done} completed`, failed ? `${failed} failed` : '', skipped ? `${skipped} skipped` : ''].filter(Boolean).join(', ');
  const lines = [`### Step results (${state.steps.length} steps: ${counts})`];
  for (const s of state.steps) {
    const mark = s.status === 'completed' || s.status === 'failed' || s.status === 'skipped' ? STATUS_MARK[s.status] : s.status;
    // One line per step: a markdown list item keeps its result with it (no lazy continuation).
    const result = clip((s.result ?? '').replace(/\s+/g, ' ').trim(), STEP_CONTEXT_RESULT_MAX_CHARS);
    lines.push(`${s.index + 1}. [${mark}] ${s.content} — ${result || '(no result)'}`);
  }
  return lines.join('\n');
}
