import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { metrics } from '@h/telemetry';
import { ModelGateway } from './model-gateway';
import type { MessagesUsage } from './messages-usage';

const KEY = 'sk-ant-the-teams-real-key';

/** An HTTP request over the run's unix socket, as the sandbox's forwarder sends it. */
function overSocket(socketPath: string, path: string, headers: Record<string, string>, body: unknown, method = 'POST'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, method, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe(ModelGateway.name, () => {
  let model: ScriptedModelServer;
  let dir: string;
  let gateway: ModelGateway;

  beforeAll(async () => {
    model = await startScriptedModelServer({ apiKey: KEY, demo: false });
    model.load({ name: 'gw', turns: [{ text: 'hello from upstream' }, { text: 'again' }, { text: 'third' }] });
  });
  afterAll(() => model.close());
  beforeEach(() => {
    model.reset();
    dir = mkdtempSync(join(tmpdir(), 'h-gw-'));
    gateway = new ModelGateway({ socketDir: dir, upstream: model.origin });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  // A failed expectation must not leave a lease listening (jest would not exit).
  const leases: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(leases.splice(0).map((l) => l.close()));
  });
  const track = <T extends { close(): Promise<void> }>(lease: T): T => (leases.push(lease), lease);

  const body = (content: string) => ({ model: 'scripted:gw', max_tokens: 100, stream: true, messages: [{ role: 'user', content }] });

  it('should forward a run secret request with the team key, stream the answer back and report its usage', async () => {
    const usage: Array<[MessagesUsage, string]> = [];
    const lease = track(await gateway.open({ runId: 'run-1', apiKey: KEY, admit: () => null, onUsage: (u, m) => void usage.push([u, m]) }));
    const socket = join(dir, lease.socketName);
    expect(statSync(socket).mode & 0o777).toBe(0o666);
    expect(lease.secret).not.toContain(KEY);
    const res = await overSocket(socket, '/v1/messages?beta=true', { 'x-api-key': lease.secret, 'anthropic-version': '2023-06-01' }, body('hi'));
    expect(res.status).toBe(200);
    expect(res.text).toContain('event: message_start');
    expect(res.text).toContain('"text":"hello from upstr"');
    // The upstream demanded the team's key (any other x-api-key is its 401) and saw the query.
    expect(model.requests[0]).toMatchObject({ path: '/v1/messages', status: 200 });
    expect(model.requests[0].headers['anthropic-version']).toBe('2023-06-01');
    expect(usage).toEqual([[{ inputTokens: expect.any(Number), outputTokens: expect.any(Number), cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, 'scripted:gw']]);
    expect(usage[0][0].outputTokens).toBeGreaterThan(0);
    // A bearer token works the same (Anthropic SDKs send either).
    const bearer = await overSocket(socket, '/v1/messages', { authorization: `Bearer ${lease.secret}` }, { ...body('hi'), stream: false });
    expect(bearer.status).toBe(200);
    expect(JSON.parse(bearer.text).content).toEqual([{ type: 'text', text: 'hello from upstream' }]); // the same first message starts the conversation over
    expect(usage).toHaveLength(2);
    await lease.close();
    expect(existsSync(socket)).toBe(false);
  });

  it('should count each forwarded model request by model and outcome, as the H engine does', async () => {
    const count = async (outcome: string) =>
      (await metrics.modelRequests.get()).values.filter((v) => v.labels.provider === 'anthropic' && v.labels.model === 'scripted:gw' && v.labels.outcome === outcome).reduce((n, v) => n + v.value, 0);
    const [ok, failed] = [await count('ok'), await count('error')];
    const lease = track(await gateway.open({ runId: 'run-m', apiKey: KEY, admit: () => null, onUsage: () => undefined }));
    const socket = join(dir, lease.socketName);
    expect((await overSocket(socket, '/v1/messages', { 'x-api-key': lease.secret }, body('hi'))).status).toBe(200);
    // The upstream refuses a key it does not know: an error answer passed through.
    const wrongKey = track(await gateway.open({ runId: 'run-n', apiKey: 'sk-ant-not-the-key', admit: () => null, onUsage: () => undefined }));
    expect((await overSocket(join(dir, wrongKey.socketName), '/v1/messages', { 'x-api-key': wrongKey.secret }, body('hi'))).status).toBe(401);
    expect([await count('ok'), await count('error')]).toEqual([ok + 1, failed + 1]);
  });

  it('should refuse another secret, the real key itself, other paths and methods, without reaching the upstream', async () => {
    const lease = track(await gateway.open({ runId: 'run-2', apiKey: KEY, admit: () => null, onUsage: () => undefined }));
    const other = track(await gateway.open({ runId: 'run-3', apiKey: KEY, admit: () => null, onUsage: () => undefined }));
    const socket = join(dir, lease.socketName);
    for (const key of ['', 'wrong', other.secret, KEY]) {
      const res = await overSocket(socket, '/v1/messages', { 'x-api-key': key }, body('x'));
      expect([res.status, JSON.parse(res.text).error.type]).toEqual([401, 'authentication_error']);
    }
    for (const [method, path] of [['GET', '/v1/models'], ['POST', '/v1/files'], ['POST', '/v1/messages/batches'], ['GET', '/v1/messages']]) {
      const res = await overSocket(socket, path, { 'x-api-key': lease.secret }, method === 'GET' ? undefined : body('x'), method);
      expect(res.status).toBe(404);
    }
    expect(model.requests).toHaveLength(0);
    await lease.close();
    await other.close();
  });

  it('should refuse a request the run may not make (a team limit) with a non-retryable error naming the reason', async () => {
    let left = 1;
    const lease = track(await gateway.open({ runId: 'run-4', apiKey: KEY, admit: () => (left-- > 0 ? null : 'this run has made its 1 model requests'), onUsage: () => undefined }));
    const socket = join(dir, lease.socketName);
    expect((await overSocket(socket, '/v1/messages', { 'x-api-key': lease.secret }, body('x'))).status).toBe(200);
    const refused = await overSocket(socket, '/v1/messages', { 'x-api-key': lease.secret }, body('x'));
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).error).toEqual({ type: 'permission_error', message: 'H: this run has made its 1 model requests' });
    expect(model.requests).toHaveLength(1);
    await lease.close();
  });

  it('should answer 502 when the upstream is unreachable and 413 for an oversized body', async () => {
    const down = new ModelGateway({ socketDir: dir, upstream: 'http://127.0.0.1:1', maxBodyBytes: 1024 });
    const lease = track(await down.open({ runId: 'run-5', apiKey: KEY, admit: () => null, onUsage: () => undefined }));
    const socket = join(dir, lease.socketName);
    const unreachable = await overSocket(socket, '/v1/messages', { 'x-api-key': lease.secret }, body('x'));
    expect([unreachable.status, JSON.parse(unreachable.text).error.type]).toEqual([502, 'api_error']);
    expect(unreachable.text).not.toContain(KEY);
    const big = await overSocket(socket, '/v1/messages', { 'x-api-key': lease.secret }, body('x'.repeat(4096)));
    expect(big.status).toBe(413);
    await lease.close();
  });
});
