import { STEP_PLANNING_GUIDANCE } from './step-plan';
import { nextStepAction, stepModeState, stepTask, stepWrapUp, unfinishedSteps, type StepLogEvent } from './step-state';

const RUN = 'run-1';
const ev = (type: string, data: unknown, runId: string | null = RUN): StepLogEvent => ({ type, data, runId });
const plan = ev('step.plan', { steps: [{ content: 'Add a test for sum() in test/sum.js' }, { content: 'Fix sum() in src/sum.js' }, { content: 'Run npm test and report' }] });

describe(stepModeState.name, () => {
  it('should plan first when the run has no locked plan, counting refused write_todos calls', () => {
    const state = stepModeState(
      [
        ev('message.user', { content: 'fix sum', stepMode: true }),
        ev('prompt.guidance', { chunkIds: [], content: STEP_PLANNING_GUIDANCE }),
        ev('tool.end', { toolCallId: 'c1', name: 'write_todos', result: 'Plan refused: too vague', isError: true, durationMs: 1 }),
      ],
      RUN,
    );
    expect(state).toMatchObject({ stepMode: true, plan: null, refusedPlans: 1, lastRefusal: 'Plan refused: too vague', guided: true });
    expect(nextStepAction(state)).toEqual({ kind: 'plan' });
  });

  it('should resume at the step the log names: begun and not ended is awaited, then the next one begins', () => {
    const log = [ev('message.user', { content: 'fix sum', stepMode: true }), plan, ev('step.begin', { index: 0, content: 'a', childRunId: 'child-0' })];
    expect(nextStepAction(stepModeState(log, RUN))).toEqual({ kind: 'await', index: 0, childRunId: 'child-0' });
    log.push(ev('step.end', { index: 0, status: 'completed', result: 'test added', childRunId: 'child-0' }));
    expect(nextStepAction(stepModeState(log, RUN))).toEqual({ kind: 'begin', index: 1 });
    log.push(ev('step.begin', { index: 1, content: 'b', childRunId: 'child-1' }), ev('step.end', { index: 1, status: 'failed', result: 'tsc: 2 errors' }));
    log.push(ev('step.begin', { index: 2, content: 'c', childRunId: 'child-2' }), ev('step.end', { index: 2, status: 'completed', result: 'ok' }));
    const state = stepModeState(log, RUN);
    expect(state.steps.map((s) => s.status)).toEqual(['completed', 'failed', 'completed']);
    expect(nextStepAction(state)).toEqual({ kind: 'wrapup' });
  });

  it("should ignore other runs' events (a child's own step-free log, an earlier run's plan)", () => {
    const state = stepModeState([ev('step.plan', { steps: [{ content: 'other' }] }, 'run-0'), ev('message.user', { content: 'x', stepMode: true }, 'child')], RUN);
    expect(state).toMatchObject({ stepMode: false, plan: null });
  });

  it('should give a step only its own text and the earlier results, failures included', () => {
    const state = stepModeState(
      [plan, ev('step.begin', { index: 0, content: 'a' }), ev('step.end', { index: 0, status: 'failed', result: 'test/sum.js: permission denied' }), ev('step.begin', { index: 1, content: 'b' }), ev('step.end', { index: 1, status: 'completed', result: 'fixed' })],
      RUN,
    );
    const task = stepTask(state, 2);
    expect(task).toContain('step 3 of 3');
    expect(task).toContain('Run npm test and report');
    expect(task).toContain('Step 1 (Add a test for sum() in test/sum.js) — failed: test/sum.js: permission denied');
    expect(task).toContain('Step 2 (Fix sum() in src/sum.js) — completed: fixed');
    expect(stepTask(state, 0)).not.toContain('earlier steps');
  });

  it('should list every step in the wrap-up and the unfinished ones for a stop', () => {
    const state = stepModeState([plan, ev('step.begin', { index: 0, content: 'a' }), ev('step.end', { index: 0, status: 'completed', result: 'test added' })], RUN);
    expect(unfinishedSteps(state).map((s) => s.index)).toEqual([1, 2]);
    const log = [plan, ev('step.end', { index: 0, status: 'completed', result: 'test added' }), ev('step.end', { index: 1, status: 'failed', result: 'boom' }), ev('step.end', { index: 2, status: 'skipped', result: 'Stopped before it ran.' })];
    const wrap = stepWrapUp(stepModeState(log, RUN));
    expect(wrap).toContain('3 steps: 1 completed, 1 failed, 1 skipped');
    expect(wrap).toContain('1. [completed] Add a test for sum() in test/sum.js');
    expect(wrap).toContain('2. [FAILED] Fix sum() in src/sum.js — boom');
  });
});
