import { builtinScenarioDir, loadScenarioFile, parseScenario, startScriptedModelServer } from '@h/scripted-model';
import { join } from 'node:path';
import { startStack, type TestStack } from '../../support/api-harness';
import { freePort } from '../../support/free-port';
import { connectSocket } from '../../support/socket-client';
import { createRunWorld, seedWorkspace, startIsolatedStack, startRun, waitForRunStatus, type ScriptedServer } from '../../support/run-fixtures';
import { waitFor } from '../../support/wait-for';
import { parsePrometheus, scrape, total, type Sample } from './prometheus-text';

const TOKEN = 'metrics-test-token-0123456789';

describe('Prometheus metrics of the api and the worker (scripted run, real sandbox)', () => {
  let model: ScriptedServer;
  let stack: TestStack;
  let workerUrl: string;
  const scenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));

  beforeAll(async () => {
    const waits = parseScenario({
      name: 'metrics-wait',
      match: { firstUserMessageContains: 'metrics: a command to approve' },
      turns: [{ expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo never' } }] }],
    });
    model = await startScriptedModelServer({ scenarios: [scenario, waits], demo: false });
    const port = await freePort();
    workerUrl = `http://127.0.0.1:${port}/metrics`;
    // A warm pool of one, so sandbox starts ask it (a hit or a miss depending on whether it has filled yet).
    stack = await startIsolatedStack({ DEEPSEEK_BASE_URL: model.url, METRICS_TOKEN: TOKEN, WORKER_HEALTH_PORT: String(port), SANDBOX_POOL_SIZE: '1' });
  });

  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  const apiMetrics = async (): Promise<Sample[]> => {
    const res = await scrape(`${stack.url}/api/metrics`, TOKEN);
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('text/plain');
    return parsePrometheus(res.text);
  };
  const workerMetrics = async (): Promise<Sample[]> => {
    const res = await scrape(workerUrl, TOKEN);
    expect(res.status).toBe(200);
    return parsePrometheus(res.text);
  };

  it('should refuse a scrape without the token or with a wrong one, on both endpoints', async () => {
    for (const url of [`${stack.url}/api/metrics`, workerUrl]) {
      for (const token of [undefined, 'not-the-metrics-token']) {
        const res = await scrape(url, token);
        expect({ url, status: res.status }).toEqual({ url, status: 401 });
        expect(JSON.parse(res.text)).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.stringContaining('METRICS_TOKEN') } });
      }
    }
  });

  it('should move the run, model, token, tool, sandbox and HTTP counters for one scripted run', async () => {
    const world = await createRunWorld(stack, 'metrics');
    await seedWorkspace(stack, world, scenario.fixture ?? {});
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const [apiBefore, workerBefore] = [await apiMetrics(), await workerMetrics()];

    const posted = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content: 'The failing test in test/math.test.js needs fixing.' });
    expect(posted.status).toBe(202);
    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect(run.status).toBe('completed');
    expect(model.failures).toEqual([]);
    const [apiAfter, workerAfter] = [await apiMetrics(), await workerMetrics()];
    const moved = (before: Sample[], after: Sample[], name: string, match: Record<string, string> = {}) => total(after, name, match) - total(before, name, match);

    // worker
    expect(moved(workerBefore, workerAfter, 'h_runs_finished_total', { status: 'completed' })).toBe(1);
    expect(moved(workerBefore, workerAfter, 'h_run_duration_seconds_count', { status: 'completed' })).toBe(1);
    expect(moved(workerBefore, workerAfter, 'h_model_requests_total', { provider: 'deepseek', outcome: 'ok' })).toBe(run.usage.requests);
    expect(run.usage.requests).toBeGreaterThanOrEqual(1);
    const team = { team: world.teamId };
    expect(total(workerAfter, 'h_model_tokens_total', { ...team, kind: 'prompt' })).toBe(run.usage.promptTokens);
    expect(total(workerAfter, 'h_model_tokens_total', { ...team, kind: 'completion' })).toBe(run.usage.completionTokens);
    expect(run.usage.promptTokens).toBeGreaterThan(0);
    expect(total(workerAfter, 'h_model_tokens_total', { ...team, kind: 'cache_hit' }) + total(workerAfter, 'h_model_tokens_total', { ...team, kind: 'cache_miss' })).toBe(
      run.usage.cacheHitTokens + run.usage.cacheMissTokens,
    );
    expect(total(workerAfter, 'h_model_cost_usd_total', team)).toBeCloseTo(run.usage.costUsd, 9);
    expect(moved(workerBefore, workerAfter, 'h_tool_calls_total', { tool: 'run_command', outcome: 'ok' })).toBe(2);
    expect(moved(workerBefore, workerAfter, 'h_tool_calls_total', { tool: 'read_file' })).toBe(2);
    expect(moved(workerBefore, workerAfter, 'h_sandbox_rpc_duration_seconds_count')).toBeGreaterThan(0);
    expect(moved(workerBefore, workerAfter, 'h_event_append_duration_seconds_count')).toBeGreaterThan(0);
    expect(moved(workerBefore, workerAfter, 'h_job_wait_seconds_count', { queue: 'agent', job: 'agent.run' })).toBe(1);
    // The run is marked completed a moment before its job returns.
    await waitFor('the job counted', async () => moved(workerBefore, await workerMetrics(), 'h_jobs_processed_total', { job: 'agent.run', outcome: 'ok' }) === 1);
    expect(total(workerAfter, 'h_sandboxes', { state: 'running' })).toBeGreaterThanOrEqual(1);
    // The world's sandbox started with the pool configured: it asked the pool once.
    expect(total(workerAfter, 'h_sandbox_warm_pool_claims_total')).toBeGreaterThanOrEqual(1);
    expect(workerAfter.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    // Model and tool metrics are the worker's: the api's endpoint does not carry them.
    expect(apiAfter.some((s) => s.name === 'h_model_requests_total' || s.name === 'h_tool_calls_total')).toBe(false);

    // api
    const route = { method: 'POST', route: '/api/v1/sessions/:id/messages', status: '202' };
    expect(moved(apiBefore, apiAfter, 'h_http_request_duration_seconds_count', route)).toBe(1);
    expect(apiAfter.filter((s) => s.name === 'h_queue_jobs' && s.labels.queue === 'agent').map((s) => s.labels.state)).toEqual(expect.arrayContaining(['waiting', 'active']));
    expect(apiAfter.some((s) => s.name === 'h_queue_oldest_wait_seconds' && s.labels.queue === 'agent')).toBe(true);
    expect(apiAfter.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    // No raw ids in route labels: templates only.
    expect(apiAfter.filter((s) => s.name === 'h_http_request_duration_seconds_count').every((s) => !/[0-9a-f]{8}-[0-9a-f]{4}/.test(s.labels.route))).toBe(true);
  });

  it('should count a run the api ends (a waiting run cancelled) on the api endpoint', async () => {
    const world = await createRunWorld(stack, 'metrics-cancel');
    const { runId } = await startRun(world, 'metrics: a command to approve', { permissionMode: 'approve' });
    await waitForRunStatus(world.client, runId, ['waiting_permission']);
    const before = total(await apiMetrics(), 'h_runs_finished_total', { status: 'cancelled' });
    expect((await world.client.post(`/api/v1/runs/${runId}/cancel`)).status).toBe(202);
    expect((await world.client.get(`/api/v1/runs/${runId}`)).body.status).toBe('cancelled');
    expect(total(await apiMetrics(), 'h_runs_finished_total', { status: 'cancelled' })).toBe(before + 1);
  });

  it('should count an open Socket.IO connection while it is open', async () => {
    const world = await createRunWorld(stack, 'metrics-io');
    const before = total(await apiMetrics(), 'h_socketio_connections');
    const socket = await connectSocket(stack.url, world.client);
    expect(total(await apiMetrics(), 'h_socketio_connections')).toBe(before + 1);
    socket.disconnect();
    await waitFor('the connection uncounted', async () => total(await apiMetrics(), 'h_socketio_connections') === before);
  });

  it('should count an open SSE stream while it is open', async () => {
    const world = await createRunWorld(stack, 'metrics-sse');
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const before = total(await apiMetrics(), 'h_sse_connections');
    const abort = new AbortController();
    const res = await fetch(`${stack.url}/api/v1/sessions/${session.body.id}/events/stream`, {
      headers: { cookie: [...world.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    await waitFor('the stream counted', async () => total(await apiMetrics(), 'h_sse_connections') === before + 1);
    abort.abort();
    await waitFor('the stream uncounted', async () => total(await apiMetrics(), 'h_sse_connections') === before);
  });
});

describe('metrics endpoint with no METRICS_TOKEN', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Test stacks have a token by default; empty means unset, as in an env file.
    stack = await startStack({ env: { METRICS_TOKEN: '' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('should answer 404 NOT_FOUND in the standard error shape, whatever token is sent', async () => {
    for (const token of [undefined, 'anything-at-all-0123456789']) {
      const res = await scrape(`${stack.url}/api/metrics`, token);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('METRICS_TOKEN') } });
    }
  });
});
