import type { EventEnvelope } from '@h/contracts';
import { applyEvents, initialConsoleState } from './transcript-state';

let seq = 0;
const ev = (runId: string | null, type: string, data: unknown): EventEnvelope => ({ sessionId: 's1', seq: ++seq, runId, ts: new Date(0).toISOString(), type, data });

describe('step plan in the console state', () => {
  const log = () => {
    seq = 0;
    return [
      ev('r1', 'message.user', { content: 'Fix sum', stepMode: true }),
      ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
      ev('r1', 'todos.updated', { todos: [{ content: 'a', status: 'pending' }] }),
      ev('r1', 'step.plan', { steps: [{ content: 'Add a test for sum()' }, { content: 'Fix sum() in src/sum.js' }, { content: 'Run npm test' }] }),
      ev('r1', 'step.begin', { index: 0, content: 'Add a test for sum()' }),
      ev('child-0', 'step.begin', { index: 1, content: 'not this run' }),
      ev('r1', 'step.end', { index: 0, status: 'completed', result: 'test added' }),
      ev('r1', 'step.begin', { index: 1, content: 'Fix sum() in src/sum.js' }),
    ];
  };

  it('should show the locked plan with per-step status, the same live and after a reload', () => {
    const events = log();
    const live = events.reduce((s, e) => applyEvents(s, [e]), initialConsoleState);
    const reloaded = applyEvents(initialConsoleState, events);
    expect(live.stepPlan).toEqual(reloaded.stepPlan);
    expect(live.stepPlan).toEqual({
      runId: 'r1',
      steps: [
        { content: 'Add a test for sum()', status: 'completed', result: 'test added' },
        { content: 'Fix sum() in src/sum.js', status: 'in_progress', result: null },
        { content: 'Run npm test', status: 'pending', result: null },
      ],
    });
  });

  it('should mark a failed and a skipped step', () => {
    const events = [...log(), ev('r1', 'step.end', { index: 1, status: 'failed', result: 'tsc failed' }), ev('r1', 'step.end', { index: 2, status: 'skipped', result: 'Skipped' })];
    expect(applyEvents(initialConsoleState, events).stepPlan?.steps.map((s) => s.status)).toEqual(['completed', 'failed', 'skipped']);
  });
});
