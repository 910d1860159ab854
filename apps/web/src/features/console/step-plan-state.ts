import type { EventEnvelope, StepStatus } from '@h/contracts';

// Step-by-step mode in the console: the locked plan (`step.plan`) with each step's status, folded
// from `step.begin` / `step.end` like the rest of the transcript, so a reload shows what the live
// page showed. The newest locked plan of the session is the one shown.

export interface StepView {
  content: string;
  status: StepStatus;
  /** The step's result (its sub-agent's report, or why it failed or was skipped). */
  result: string | null;
}

export interface StepPlanView {
  runId: string | null;
  steps: StepView[];
}

type Data = Record<string, unknown>;

/** The plan after one event; the same object when the event is not a step event of its run. */
export function applyStepEvent(plan: StepPlanView | null, e: EventEnvelope): StepPlanView | null {
  const d = (e.data ?? {}) as Data;
  if (e.type === 'step.plan') {
    const steps = Array.isArray(d.steps) ? (d.steps as { content?: unknown }[]) : [];
    return { runId: e.runId, steps: steps.map((s) => ({ content: typeof s.content === 'string' ? s.content : '', status: 'pending', result: null })) };
  }
  if ((e.type !== 'step.begin' && e.type !== 'step.end') || !plan || plan.runId !== e.runId) return plan;
  const index = typeof d.index === 'number' ? d.index : -1;
  const step = plan.steps[index];
  if (!step) return plan;
  const next: StepView =
    e.type === 'step.begin'
      ? { ...step, status: 'in_progress' }
      : { ...step, status: (d.status as StepStatus) ?? 'failed', result: typeof d.result === 'string' ? d.result : null };
  return { ...plan, steps: plan.steps.map((s, i) => (i === index ? next : s)) };
}
