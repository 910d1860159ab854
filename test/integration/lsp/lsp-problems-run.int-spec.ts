import { allEvents, createRunWorld, finishTurn, scenario, seedWorkspace, startRun, useScriptedRunStack, waitForRunStatus } from '../../support/run-fixtures';

// Issue 13, point 2: read_problems reads the workspace's language servers (the files the run
// wrote), the problem lock refuses task_complete while their errors stand, and the fix clears it.
const BROKEN_TS = "import { double } from './math';\nconst label: string = double(2);\nconsole.log(label);\n";
const BROKEN_PY = 'def greet(name: str) -> str:\n    return "hi " + name\n\nprint(greet(undefined_name))\n';
const SUMMARY = '### Changes Made\n- src/main.ts: label is a string\n- app/util.py: greets a defined name\n\n### Verification\n- read_problems: 0 errors\n\n### Outcome\n- both files type-check.';

const fixRun = scenario('lsp-problems', 'lsp: write, check and fix', [
  {
    expect: { lastMessageRole: 'user' },
    toolCalls: [
      { name: 'write_file', arguments: { path: 'src/main.ts', content: BROKEN_TS } },
      { name: 'write_file', arguments: { path: 'app/util.py', content: BROKEN_PY } },
    ],
  },
  { expect: { lastMessageRole: 'tool' }, toolCalls: [{ name: 'read_problems', arguments: {} }] },
  {
    expect: { lastMessageContains: ['2 errors, 0 warnings from the language servers', "src/main.ts:2:7 error Type 'number' is not assignable to type 'string'", 'app/util.py:4:13 error'] },
    toolCalls: [
      { name: 'write_summary', arguments: { summary: SUMMARY } },
      { name: 'task_complete', arguments: {} },
    ],
  },
  {
    expect: { lastMessageContains: 'Cannot complete: 2 errors still present' },
    toolCalls: [
      { name: 'edit_file', arguments: { path: 'src/main.ts', old_string: 'double(2);', new_string: 'String(double(2));' } },
      { name: 'edit_file', arguments: { path: 'app/util.py', old_string: 'greet(undefined_name)', new_string: 'greet("you")' } },
    ],
  },
  { expect: { lastMessageRole: 'tool' }, toolCalls: [{ name: 'read_problems', arguments: {} }] },
  finishTurn({ lastMessageContains: '0 errors, 0 warnings from the language servers' }, SUMMARY),
]);

describe('read_problems from the language servers', () => {
  const ctx = useScriptedRunStack([fixRun]);

  it('reports the TypeScript and Python errors, refuses task_complete while they stand, and is clean after the fix', async () => {
    const world = await createRunWorld(ctx.stack, 'lsp-run');
    await seedWorkspace(ctx.stack, world, {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' }, include: ['src'] }),
      'src/math.ts': 'export function double(n: number): number {\n  return n * 2;\n}\n',
    });
    const { sessionId, runId } = await startRun(world, 'lsp: write, check and fix', { permissionMode: 'bypass' });
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 180_000)).status).toBe('completed');

    const ends = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'tool.end');
    const problems = ends.filter((e) => e.data.name === 'read_problems').map((e) => e.data.data);
    expect(problems).toEqual([
      expect.objectContaining({ source: 'lsp', errorCount: 2 }),
      expect.objectContaining({ source: 'lsp', errorCount: 0, warningCount: 0 }),
    ]);
    const completes = ends.filter((e) => e.data.name === 'task_complete');
    expect(completes.map((e) => e.data.isError)).toEqual([true, false]);
  }, 240_000);
});
