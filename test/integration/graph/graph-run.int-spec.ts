import { allEvents, createRunWorld, finishTurn, scenario, seedWorkspace, startRun, useScriptedRunStack, waitForRunStatus } from '../../support/run-fixtures';

// Issue 14 point 5 through the worker: an agent run's read_graph reaches the workspace sandbox's
// knowledge graph (the job's SandboxGraphHost), and a file the run just wrote is in the answer of
// the very next call (the query takes pending watcher changes in first).
const SUMMARY = '### Changes Made\n- src/report.ts: added, uses format from src/format.ts\n\n### Verification\n- checked with read_graph: src/report.ts is a dependent of src/format.ts\n\n### Outcome\n- the graph knows the new file.';

const graphRun = scenario('graph-run', 'graph: who depends on format', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'read_graph', arguments: { query: 'exports', target: 'src/format.ts' } }] },
  {
    expect: { lastMessageContains: 'src/format.ts exports:\nformat:function\nFormat:type' },
    toolCalls: [{ name: 'write_file', arguments: { path: 'src/report.ts', content: "import { format, Format } from './format';\nimport { readFileSync } from 'node:fs';\nexport const report = (n: number) => format(n);\n" } }],
  },
  { expect: { lastMessageRole: 'tool' }, toolCalls: [{ name: 'read_graph', arguments: { query: 'dependents', target: 'src/format.ts' } }] },
  { expect: { lastMessageContains: 'src/format.ts is imported by:\nsrc/report.ts' }, toolCalls: [{ name: 'read_graph', arguments: { query: 'unused_imports', target: 'src/report.ts' } }] },
  finishTurn({ lastMessageContains: 'src/report.ts unused imports:\n  Format (from ./format)\n  readFileSync (from node:fs)' }, SUMMARY),
]);

describe('read_graph in an agent run', () => {
  const ctx = useScriptedRunStack([graphRun]);

  it('answers from the sandbox graph, including a file written one call earlier', async () => {
    const world = await createRunWorld(ctx.stack, 'graph-run');
    await seedWorkspace(ctx.stack, world, { 'src/format.ts': 'export type Format = string;\nexport function format(n: number): Format {\n  return n.toFixed(2);\n}\n' });
    const { sessionId, runId } = await startRun(world, 'graph: who depends on format', { permissionMode: 'bypass' });
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 180_000)).status).toBe('completed');
    const graphCalls = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'tool.end' && e.data.name === 'read_graph');
    expect(graphCalls.map((e) => e.data.isError)).toEqual([false, false, false]);
    expect(graphCalls[1].data.data).toMatchObject({ query: 'dependents', status: { state: 'ready', files: 2 } });
  }, 240_000);
});
