import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUEUE_BOARD_PATH } from '@h/contracts';
import { startStack, TestStack } from '../../support/api-harness';
import { signedUpInstanceAdmin } from './team-fixture';

interface Seen {
  method: string;
  url: string;
  contentType?: string;
  body: string;
}

// One URL per team: the api answers /api/* and hands every other path, body untouched, to the
// Next.js server. A stand-in web server records what reaches it.
describe('web proxy', () => {
  let stack: TestStack;
  let web: Server;
  const seen: Seen[] = [];

  beforeAll(async () => {
    web = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString() });
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>web</html>');
      });
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    stack = await startStack({ env: { WEB_INTERNAL_URL: `http://127.0.0.1:${(web.address() as AddressInfo).port}` } });
  });

  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => web?.close(resolve));
  });

  it('should pass page requests and their bodies (form, JSON, text) through to the web app', async () => {
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', 'email=a%40b.test&next=%2Fteams'],
      ['application/json', '{"action":"save"}'],
      ['text/plain;charset=UTF-8', '["server-action-args"]'],
    ];
    for (const [type, body] of bodies) {
      const res = await fetch(`${stack.url}/teams/new?x=1`, { method: 'POST', headers: { 'content-type': type }, body });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('<html>web</html>');
    }
    expect(seen.map(({ method, url, body }) => ({ method, url, body }))).toEqual(
      bodies.map(([, body]) => ({ method: 'POST', url: '/teams/new?x=1', body })),
    );
    expect((await fetch(`${stack.url}/login`)).status).toBe(200);
  });

  it("should serve the queue board's page and static files from the api, never the web app, with the proxy on", async () => {
    const admin = await signedUpInstanceAdmin(stack.url, 'proxy-board');
    const before = seen.length;
    const page = await admin.client.get(QUEUE_BOARD_PATH);
    expect(page.status).toBe(200);
    const asset = /src="(static\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(asset).toBeDefined();
    const script = await admin.client.get(`${QUEUE_BOARD_PATH}/${asset}`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, expect.stringMatching(/javascript/)]);
    expect(seen.length).toBe(before);
  });

  it('should keep /api for the api: unknown api paths are 404 JSON and never reach the web app', async () => {
    const before = seen.length;
    const res = await fetch(`${stack.url}/api/not-a-route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    const health = await fetch(`${stack.url}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(seen.length).toBe(before);
  });

  it("should keep h2c's /health and /v1/task* for the api: they never reach the web app", async () => {
    const before = seen.length;
    const health = await fetch(`${stack.url}/health`);
    expect([health.status, await health.text()]).toEqual([200, '{"status":"ok"}']);
    for (const path of ['/v1/task?task_id=task_x', '/v1/task/?task_id=task_x', '/v1/task/output?task_id=task_x', '/v1/task/output/stream?id=task_x', '/v1/task/nope']) {
      const res = await fetch(`${stack.url}${path}`);
      expect({ path, status: res.status, body: await res.json() }).toEqual({ path, status: res.status, body: { error: expect.stringMatching(/^(unauthorized|not_found)$/), message: expect.any(String) } });
    }
    const create = await fetch(`${stack.url}/v1/task/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"hi"}' });
    expect([create.status, (await create.json()).error]).toEqual([401, 'unauthorized']);
    expect(seen.length).toBe(before);
    // Paths that only start like h2c's are the web app's.
    expect((await fetch(`${stack.url}/v1/tasks`)).status).toBe(200);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });
});
