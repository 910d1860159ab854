import { STEP_PLAN_MAX_STEPS } from '@h/contracts';
import { validateStepPlan } from './step-plan';

const todos = (...contents: string[]) => contents.map((content) => ({ content }));

describe(validateStepPlan.name, () => {
  it('should accept specific steps and normalise their whitespace', () => {
    expect(validateStepPlan(todos('Add a failing test for sum() in test/sum.test.js', '  Fix  sum() in src/sum.js  '))).toEqual({
      ok: true,
      steps: ['Add a failing test for sum() in test/sum.test.js', 'Fix sum() in src/sum.js'],
    });
  });

  it('should refuse an empty plan', () => {
    expect(validateStepPlan([])).toEqual({ ok: false, reason: expect.stringContaining('empty') });
  });

  it('should refuse vague steps and name each of them', () => {
    const verdict = validateStepPlan(todos('Fix it', 'Rename getUser to fetchUser in src/api.ts', 'Do the rest of the work', 'etc.'));
    expect(verdict.ok).toBe(false);
    const reason = (verdict as { reason: string }).reason;
    expect(reason).toContain('Step 1 ("Fix it") is too vague');
    expect(reason).toContain('Step 3');
    expect(reason).toContain('Step 4');
    expect(reason).not.toContain('Step 2');
  });

  it('should refuse a repeated step and a plan longer than the limit', () => {
    expect(validateStepPlan(todos('Run npm test in the project root', 'run npm test in the project root'))).toEqual({ ok: false, reason: 'Step 2 repeats step 1.' });
    const long = Array.from({ length: STEP_PLAN_MAX_STEPS + 1 }, (_, i) => ({ content: `Write the unit test number ${i} in test/a.js` }));
    expect(validateStepPlan(long)).toEqual({ ok: false, reason: expect.stringContaining(`at most ${STEP_PLAN_MAX_STEPS}`) });
  });
});
