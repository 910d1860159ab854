import { builtinScenarioDir, loadScenarioFile, startScriptedModelServer } from '@h/scripted-model';
import { SpanKind, Telemetry } from '@h/telemetry';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOtlpCollector, type CollectedSpan, type OtlpCollector } from '../../../libs/telemetry/src/testing/otlp-collector';
import type { TestStack } from '../../support/api-harness';
import { createRunWorld, seedWorkspace, startIsolatedStack, waitForRunStatus, type ScriptedServer } from '../../support/run-fixtures';
import { waitFor } from '../../support/wait-for';

// OTLP SpanKind values are the API's plus one (0 is UNSPECIFIED).
const kind = (k: SpanKind) => k + 1;

describe('one trace per run, exported over OTLP/HTTP (in-process collector, scripted model, real sandbox)', () => {
  let collector: OtlpCollector;
  let model: ScriptedServer;
  let stack: TestStack;
  const scenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));

  beforeAll(async () => {
    collector = await startOtlpCollector();
    model = await startScriptedModelServer({ scenarios: [scenario], demo: false });
    stack = await startIsolatedStack({ DEEPSEEK_BASE_URL: model.url, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
  });

  afterAll(async () => {
    await stack?.close();
    await model?.close();
    await collector?.close();
  });

  it('should trace the api request, the enqueue, the job, every model request, every tool call and its sandbox RPCs under one trace id', async () => {
    const world = await createRunWorld(stack, 'traces');
    await seedWorkspace(stack, world, scenario.fixture ?? {});
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const posted = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content: 'The failing test in test/math.test.js needs fixing.' });
    expect(posted.status).toBe(202);
    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect(run.status).toBe('completed');

    const flush = () => stack.api.get(Telemetry).tracing.flush();
    const request = await waitFor('the message request span', async () => {
      await flush();
      return collector.spans.find((s) => s.name === 'POST /api/v1/sessions/:id/messages' && s.kind === kind(SpanKind.SERVER));
    });
    const job = await waitFor("the run's job span", async () => {
      await flush();
      return collector.spans.find((s) => s.name === 'job agent.run' && s.attributes['h.run_id'] === run.id);
    });
    const trace = collector.spans.filter((s) => s.traceId === request.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const parentOf = (s: CollectedSpan) => byId.get(s.parentSpanId);
    if (process.env.H_PRINT_TRACE) {
      const print = (s: CollectedSpan, depth: number): void => {
        process.stdout.write(`${'  '.repeat(depth)}${s.name}\n`);
        for (const c of trace.filter((x) => x.parentSpanId === s.spanId)) print(c, depth + 1);
      };
      print(request, 0);
    }

    expect(request.attributes).toMatchObject({ 'http.route': '/api/v1/sessions/:id/messages', 'http.response.status_code': 202 });
    expect(job.traceId).toBe(request.traceId);
    expect(job.kind).toBe(kind(SpanKind.CONSUMER));
    const enqueue = parentOf(job);
    expect(enqueue).toMatchObject({ name: 'enqueue agent.run', kind: kind(SpanKind.PRODUCER) });
    // The enqueue happens inside the request (directly, or in a span of its own under it).
    let up = enqueue;
    while (up && up !== request) up = parentOf(up);
    expect(up).toBe(request);

    const models = trace.filter((s) => s.name.startsWith('model '));
    expect(models).toHaveLength(run.usage.requests);
    for (const m of models) expect(parentOf(m)).toBe(job);
    expect(models[0]).toMatchObject({ kind: kind(SpanKind.CLIENT), attributes: expect.objectContaining({ 'gen_ai.system': 'deepseek' }) });

    const tools = trace.filter((s) => s.name.startsWith('tool '));
    expect(tools.map((t) => t.name).sort()).toEqual(['tool edit_file', 'tool read_file', 'tool read_file', 'tool run_command', 'tool run_command', 'tool task_complete', 'tool write_summary'].sort());
    for (const t of tools) expect(parentOf(t)).toBe(job);
    // run_command executes in the sandbox: its RPCs are children of the tool call's span.
    for (const t of tools.filter((x) => x.name === 'tool run_command')) {
      const rpcs = trace.filter((s) => s.name.startsWith('sandbox ') && s.parentSpanId === t.spanId);
      expect(rpcs.length).toBeGreaterThan(0);
      expect(rpcs[0]).toMatchObject({ kind: kind(SpanKind.CLIENT), attributes: expect.objectContaining({ 'rpc.system': 'jsonrpc' }) });
    }

    // The same ids reach the logs through the async context: the job's lines carry the run id and
    // the trace id, the request's lines the request id.
    const lines = readFileSync(stack.logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const jobDone = lines.find((l) => l.msg === 'job done' && l.runId === run.id);
    expect(jobDone).toMatchObject({ job: 'agent.run', traceId: request.traceId });
    expect(lines.some((l) => l.requestId === request.attributes['h.request_id'] && l.traceId === request.traceId)).toBe(true);
  });
});
