import { parseScenario, startScriptedModelServer } from '@h/scripted-model';
import { SpanKind, Telemetry } from '@h/telemetry';
import { startOtlpCollector, type OtlpCollector } from '../../../libs/telemetry/src/testing/otlp-collector';
import { startStack, type TestStack } from '../../support/api-harness';
import { freePort } from '../../support/free-port';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { createRunWorld, waitForRunStatus, type ScriptedServer } from '../../support/run-fixtures';
import { TEST_METRICS_TOKEN } from '../../support/test-env';
import { waitFor } from '../../support/wait-for';
import { ensureServerBuild, startWorkerProcess, type WorkerProcess } from '../../support/worker-process';
import { parsePrometheus, scrape, total } from './prometheus-text';

const kind = (k: SpanKind) => k + 1;

const SUMMARY = [
  '### Changes Made',
  '- `traced.txt`: created with the word traced.',
  '',
  '### Verification',
  '- Ran `cat traced.txt`: exit 0.',
  '',
  '### Outcome',
  'The file exists.',
].join('\n');

// As production runs them: the api here and the BUILT worker as a process of its own, each with its
// own tracer and metrics registry. The trace crosses the process boundary only through the job data.
describe('telemetry across the api and a separate worker process', () => {
  let collector: OtlpCollector;
  let model: ScriptedServer;
  let database: { url: string; drop(): Promise<void> };
  let stack: TestStack;
  let worker: WorkerProcess;
  let workerMetricsUrl: string;

  beforeAll(async () => {
    ensureServerBuild();
    collector = await startOtlpCollector();
    model = await startScriptedModelServer({
      demo: false,
      scenarios: [
        parseScenario({
          name: 'traced-process',
          match: { firstUserMessageContains: 'Create traced.txt' },
          turns: [
            { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo traced > traced.txt && cat traced.txt' } }] },
            { expect: { lastMessageContains: 'traced' }, toolCalls: [{ name: 'write_summary', arguments: { summary: SUMMARY } }, { name: 'task_complete', arguments: {} }] },
          ],
        }),
      ],
    });
    database = await createIsolatedDatabase('telemetry');
    stack = await startStack({ env: { DATABASE_URL: database.url, DEEPSEEK_BASE_URL: model.url, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } });
    const port = await freePort();
    workerMetricsUrl = `http://127.0.0.1:${port}/metrics`;
    worker = await startWorkerProcess(stack.config, { WORKER_HEALTH_PORT: String(port) });
  });

  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
    await model?.close();
    await collector?.close();
    await database?.drop();
  });

  it("should continue the api request's trace in the worker process and count the run on the worker's own endpoint", async () => {
    const world = await createRunWorld(stack, 'telemetryproc');
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const posted = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content: 'Create traced.txt, please.' });
    expect(posted.status).toBe(202);
    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect(run.status).toBe('completed');
    expect(model.failures).toEqual([]);

    await stack.api.get(Telemetry).tracing.flush();
    // The worker's batch processor exports on its own schedule (about a second).
    const job = await waitFor("the worker's run span", async () => collector.spans.find((s) => s.name === 'job agent.run' && s.attributes['h.run_id'] === run.id), 30_000);
    const enqueue = collector.spans.find((s) => s.spanId === job.parentSpanId);
    expect(enqueue).toMatchObject({ name: 'enqueue agent.run', service: 'h-api', kind: kind(SpanKind.PRODUCER), traceId: job.traceId });
    const request = collector.spans.find((s) => s.spanId === enqueue?.parentSpanId);
    expect(request).toMatchObject({ name: 'POST /api/v1/sessions/:id/messages', service: 'h-api' });
    expect(job).toMatchObject({ service: 'h-worker', kind: kind(SpanKind.CONSUMER) });
    const children = await waitFor("the job's model and tool spans", async () => {
      const c = collector.spans.filter((s) => s.parentSpanId === job.spanId);
      return c.filter((s) => s.name.startsWith('model ')).length === 2 && c.some((s) => s.name === 'tool task_complete') ? c : null;
    }, 30_000);
    const command = children.find((s) => s.name === 'tool run_command');
    expect(command?.service).toBe('h-worker');
    expect(collector.spans.some((s) => s.name === 'sandbox exec.run' && s.parentSpanId === command?.spanId)).toBe(true);

    const workerSamples = parsePrometheus((await scrape(workerMetricsUrl, TEST_METRICS_TOKEN)).text);
    expect(total(workerSamples, 'h_runs_finished_total', { status: 'completed' })).toBe(1);
    expect(total(workerSamples, 'h_model_requests_total', { outcome: 'ok' })).toBe(2);
    expect(total(workerSamples, 'h_model_tokens_total', { team: world.teamId, kind: 'prompt' })).toBe(run.usage.promptTokens);
    const apiSamples = parsePrometheus((await scrape(`${stack.url}/api/metrics`, TEST_METRICS_TOKEN)).text);
    expect(total(apiSamples, 'h_runs_finished_total')).toBe(0);
    expect(total(apiSamples, 'h_http_request_duration_seconds_count', { route: '/api/v1/sessions/:id/messages', method: 'POST' })).toBe(1);
  });
});
