// Step-by-step mode, phase 1 (seed "IDE-Driven Step-by-Step Execution"): the model plans with
// write_todos only, and the server decides whether the plan is good enough to lock. A plan the
// server refuses goes back to the model with the reason (the tool's error result), so the model
// can write it again; the attempts are bounded (STEP_PLAN_MAX_ATTEMPTS).
import { STEP_PLAN_MAX_STEPS } from '@h/contracts';
import { p, params, ToolError, type AgentTool } from '@h/tools';

/** Shortest step text that can name what to do and where (e.g. "Add a sum test in test/sum.js"). */
const MIN_STEP_CHARS = 12;
const MIN_STEP_WORDS = 3;
/** Longest step text: a step is one instruction, not a document. */
const MAX_STEP_CHARS = 1000;

// Steps that say nothing a sub-agent could act on alone: it sees only its step and the earlier
// results, so "fix it" or "continue" cannot be done.
const VAGUE = [
  /^(do|fix|finish|complete|continue|implement|handle|test|check|review|update|make)( (it|this|that|everything|the rest|things|stuff|the task|all))?\.?$/i,
  /^(step|task|todo) ?\d*\.?$/i,
  /^(tbd|todo|etc|misc|wip|\.\.\.|n\/a)\.?$/i,
  /\b(and so on|etc\.?|as needed|whatever is needed|everything else|the rest of (it|the work))\s*\.?$/i,
];

export type PlanVerdict = { ok: true; steps: string[] } | { ok: false; reason: string };

/** The server's check of a plan written in step-by-step mode (non-empty, specific, bounded). */
export function validateStepPlan(todos: readonly { content: string }[]): PlanVerdict {
  const steps = todos.map((t) => t.content.trim().replace(/\s+/g, ' '));
  if (steps.length === 0) return { ok: false, reason: 'The plan is empty: write at least one step.' };
  if (steps.length > STEP_PLAN_MAX_STEPS) {
    return { ok: false, reason: `The plan has ${steps.length} steps; at most ${STEP_PLAN_MAX_STEPS} are allowed: merge related steps.` };
  }
  const problems: string[] = [];
  const seen = new Map<string, number>();
  steps.forEach((step, i) => {
    const label = `Step ${i + 1}`;
    const words = step.split(' ').filter((w) => /\w/.test(w)).length;
    if (!step) problems.push(`${label} is empty.`);
    else if (step.length > MAX_STEP_CHARS) problems.push(`${label} is ${step.length} characters long; keep each step under ${MAX_STEP_CHARS} and split it if needed.`);
    else if (VAGUE.some((re) => re.test(step)) || step.length < MIN_STEP_CHARS || words < MIN_STEP_WORDS) {
      problems.push(`${label} ("${step}") is too vague: say what to change and where (file, function, command), since it runs on its own.`);
    }
    const key = step.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) problems.push(`${label} repeats step ${first + 1}.`);
    else seen.set(key, i);
  });
  return problems.length ? { ok: false, reason: problems.join(' ') } : { ok: true, steps };
}

/** Told to the model before it plans (a `prompt.guidance` after the user's message, never in the cached prefix). */
export const STEP_PLANNING_GUIDANCE = [
  'Step-by-step mode: do not do the task now. Plan it.',
  'Call write_todos once with the complete, ordered plan: every step "pending", each one specific',
  '(what to change and where: files, functions, commands) and doable on its own by a developer who',
  'sees only that step and the results of the steps before it. The server checks and locks the plan;',
  'then each step runs separately. write_todos is the only tool offered now.',
].join(' ');

const input = params({
  todos: p.array(p.object({ content: p.string(), status: p.enum(['pending', 'in_progress', 'completed', 'cancelled'] as const) }), 'The whole ordered plan, one todo per step'),
});

/**
 * write_todos as planning offers it: the same name and parameters, but the list is the plan the
 * server validates. An accepted plan ends the planning (state.completed); a refused one is an
 * error result naming the reason, which the model reads on its next request.
 */
export const stepPlanTool: AgentTool<typeof input.zod._output> = {
  name: 'write_todos',
  description: 'Write the complete ordered plan for this task, one specific step per todo (all pending). The server checks it and locks it; each step then runs on its own.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ todos }, { state }) {
    const verdict = validateStepPlan(todos);
    if (!verdict.ok) throw new ToolError(`Plan refused: ${verdict.reason} Call write_todos again with the whole corrected plan.`);
    state.todos = verdict.steps.map((content) => ({ content, status: 'pending' }));
    state.completed = true;
    return { text: `Plan accepted and locked (${verdict.steps.length} steps).`, data: { todos: state.todos } };
  },
};
