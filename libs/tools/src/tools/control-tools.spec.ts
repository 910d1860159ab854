import { validateSummary } from '../summary-validator';
import { createToolKit, type ToolKit } from '../testing/tool-test-kit';

const GOOD_SUMMARY = `### Changes Made
- src/sum.js: return a + b instead of a - b
### Verification
- npm test: 4 tests passed
### Outcome
- sum() adds again and the failing test passes`;

describe('control tools', () => {
  let kit: ToolKit;
  beforeEach(() => (kit = createToolKit()));
  afterEach(() => kit.cleanup());

  it('should accept write_summary then task_complete, also in one batch', async () => {
    expect((await kit.call('write_summary', { summary: GOOD_SUMMARY })).text).toBe('Summary recorded');
    expect((await kit.call('task_complete')).text).toBe('Task complete');
    expect(kit.ctx.state.completed).toBe(true);
  });

  it('should refuse task_complete before an accepted summary', async () => {
    const res = await kit.call('task_complete');
    expect(res).toMatchObject({ isError: true, text: expect.stringContaining('write_summary first') });
    await kit.call('write_summary', { summary: 'I did the task' });
    expect((await kit.call('task_complete')).isError).toBe(true);
    expect(kit.ctx.state.completed).toBe(false);
  });

  it('should refuse task_complete while read_problems reports errors (problem lock)', async () => {
    await kit.call('write_summary', { summary: GOOD_SUMMARY });
    kit.ctx.state.problems = { errorCount: 3, warningCount: 0, source: 'lsp', text: '' };
    expect((await kit.call('task_complete')).text).toBe(
      'Cannot complete: 3 errors still present. Fix them, run read_problems again, then task_complete.',
    );
    kit.ctx.state.problems = { errorCount: 0, warningCount: 2, source: 'lsp', text: '' };
    expect((await kit.call('task_complete')).isError).toBeFalsy();
  });

  it('should track todos, block completion while some are open and require a Todo Progress section', async () => {
    const todos = [
      { content: 'Fix sum', status: 'completed' },
      { content: 'Run tests', status: 'in_progress' },
    ];
    expect((await kit.call('write_todos', { todos })).text).toBe('Todos updated (1 in progress, 1 completed)');
    expect(await kit.call('write_todos', { todos: [{ content: 'x', status: 'maybe' }] })).toMatchObject({ isError: true });
    const rejected = await kit.call('write_summary', { summary: GOOD_SUMMARY });
    expect(rejected).toMatchObject({ isError: true, text: expect.stringContaining('missing "### Todo Progress" section') });
    await kit.call('write_summary', { summary: `${GOOD_SUMMARY}\n### Todo Progress\n- Fix sum: completed\n- Run tests: in progress` });
    expect((await kit.call('task_complete')).text).toContain('1 todo still open: Run tests');
    await kit.call('write_todos', { todos: todos.map((t) => ({ ...t, status: 'completed' })) });
    expect((await kit.call('task_complete')).text).toBe('Task complete');
  });

  it('should reject a Todo Progress section whose statuses differ from the todos, whatever its bullet count', async () => {
    await kit.call('write_todos', { todos: [{ content: 'Fix sum', status: 'completed' }, { content: 'Run tests', status: 'in_progress' }] });
    const claimsDone = await kit.call('write_summary', { summary: `${GOOD_SUMMARY}\n### Todo Progress\n- Fix sum: completed\n- Run tests: completed` });
    expect(claimsDone).toMatchObject({ isError: true, text: expect.stringContaining('says todo "Run tests" is completed, but it is in progress') });
    const noStatus = await kit.call('write_summary', { summary: `${GOOD_SUMMARY}\n### Todo Progress\n- Fix sum: completed\n- Run tests` });
    expect(noStatus).toMatchObject({ isError: true, text: expect.stringContaining('gives no status for todo "Run tests"') });
    // Listed out of order and in the summary's own words: matched by content, not by position.
    const accepted = await kit.call('write_summary', { summary: `${GOOD_SUMMARY}\n### Todo Progress\n- Run tests: still in progress\n- Fix sum: done ✅` });
    expect(accepted.text).toBe('Summary recorded');
  });
});

describe(validateSummary.name, () => {
  it('should accept a concrete summary and one that changed no files', () => {
    expect(validateSummary(GOOD_SUMMARY, [])).toEqual([]);
    expect(
      validateSummary('### Changes Made\n- No files changed\n### Verification\n- ran npm test: 3 passed\n### Outcome\n- explained why the build is slow', []),
    ).toEqual([]);
  });

  it('should reject short, vague, thought-process and incomplete summaries with reasons', () => {
    expect(validateSummary('OK, completed', [])).toEqual(expect.arrayContaining([expect.stringContaining('too short'), 'missing "### Changes Made" section']));
    expect(validateSummary(`Let me summarise.\n${GOOD_SUMMARY}`, [])).toContain('reads like a thought process; state what was done');
    const vague = '### Changes Made\n- updated the code a bit\n### Verification\n- looks good to me overall\n### Outcome\n- done';
    expect(validateSummary(vague, [])).toEqual([
      '"### Outcome" is empty or vague',
      '"### Changes Made" names no file (use "- path: what changed", or "- No files changed")',
      '"### Verification" gives no result (which build/test/check ran and what it showed)',
    ]);
  });
});
