import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient, randomEmail, TEST_PASSWORD } from '../../support/http-client';
import { TEST_LOG_DIR } from '../../support/test-env';
import { recordedSecrets, recordSecrets } from './secret-registry';

interface LogLine {
  level: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
}

// Drives every kind of credential H handles through a stack that logs at trace level, then reads
// every log file the test run produced and looks for the literal values.
describe('secrets in logs', () => {
  let stack: TestStack;
  const secrets = new Map<string, string>();
  const remember = (what: string, value: string | undefined) => {
    if (!value) throw new Error(`no value for ${what}`);
    secrets.set(what, value);
    recordSecrets(value);
    return value;
  };

  beforeAll(async () => {
    // No worker: workspace setup provisions a Docker sandbox, which has nothing to do with secrets.
    stack = await startStack({ env: { LOG_LEVEL: 'trace', BODY_LIMIT: '64kb' } });
    const url = stack.url;
    const password = remember('password', `pw-${randomUUID()}`);
    const email = randomEmail('logscan');

    const browser = new HttpClient(url);
    expect((await browser.post('/api/v1/auth/signup', { email, password, name: 'Log Scan' })).status).toBe(201);
    remember('session cookie (sign-up)', browser.cookies.get('h_session'));
    remember('csrf token (sign-up)', browser.cookies.get('h_csrf'));

    const wrong = remember('wrong password', `wrong-${randomUUID()}`);
    expect((await new HttpClient(url).post('/api/v1/auth/login', { email, password: wrong })).status).toBe(401);
    const second = new HttpClient(url);
    expect((await second.post('/api/v1/auth/login', { email, password })).status).toBe(200);
    remember('session cookie (login)', second.cookies.get('h_session'));
    remember('csrf token (login)', second.cookies.get('h_csrf'));

    const team = await browser.post('/api/v1/teams', { name: 'Log scan team' });
    const teamId = team.body.id as string;
    const created = await browser.post(`/api/v1/teams/${teamId}/tokens`, { name: 'log-scan', scopes: ['read', 'write', 'admin'] });
    expect(created.status).toBe(201);
    const token = remember('api token', created.body.secret);
    // The part after h_<prefix>_: the secret may itself contain '_', so never split on it.
    remember('api token secret part', token.replace(/^h_[A-Za-z0-9]{12}_/, ''));

    const bot = new HttpClient(url);
    bot.bearer = token;
    const ws = await bot.post(`/api/v1/teams/${teamId}/workspaces`, { name: 'log-scan-ws' });
    expect(ws.status).toBe(201);
    expect((await bot.get(`/api/v1/workspaces/${ws.body.id}`)).status).toBe(200);

    // The same token over Socket.IO, once valid and once tampered with.
    for (const auth of [{ token }, { token: `${token.slice(0, -3)}xyz` }]) {
      const socket = io(url, { path: '/api/socket.io', transports: ['websocket'], auth, reconnection: false, forceNew: true });
      await new Promise<void>((resolve) => {
        socket.once('ready', () => resolve());
        socket.once('auth_error', () => resolve());
        socket.once('connect_error', () => resolve());
      });
      socket.disconnect();
    }

    const key = remember('provider key', `sk-${randomUUID().replace(/-/g, '')}`);
    expect((await bot.put(`/api/v1/teams/${teamId}/providers/deepseek`, { apiKey: key })).status).toBe(200);
    expect((await browser.put(`/api/v1/teams/${teamId}/providers/deepseek`, { apiKey: key })).status).toBe(200);

    // Failing requests that carry secrets: validation errors, malformed JSON, a bad bearer token,
    // a CSRF mismatch and a body over the limit must not echo them into the logs either.
    const leaky = remember('secret in failing bodies', `leak-${randomUUID()}`);
    const anon = new HttpClient(url);
    const forger = new HttpClient(url);
    for (const [k, v] of browser.cookies) forger.cookies.set(k, v);
    forger.sendCsrf = false;
    const failures = [
      await anon.post('/api/v1/auth/signup', { email: 'not-an-email', password: leaky, name: 'x' }),
      await anon.request('POST', '/api/v1/auth/login', `{"email":"${email}","password":"${leaky}"`),
      await anon.request('POST', '/api/v1/auth/login', `{"email":"${email}","password":"${leaky}", }`),
      await browser.put(`/api/v1/teams/${teamId}/providers/deepseek`, { apiKey: `${leaky} with spaces` }),
      await browser.put(`/api/v1/teams/${teamId}/providers/deepseek`, { apiKey: key, [leaky]: key }),
      await forger.request('POST', `/api/v1/teams/${teamId}/workspaces`, { name: 'x' }, { 'x-csrf-token': leaky }),
      await new HttpClient(url).request('GET', '/api/v1/me', undefined, { authorization: `Bearer h_${leaky}` }),
      await anon.post('/api/v1/auth/login', { email, password: `${leaky}${'x'.repeat(128 * 1024)}` }),
    ];
    for (const res of failures) expect(res.status).toBeGreaterThanOrEqual(400);
    expect(failures.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);

    expect((await browser.post('/api/v1/auth/logout')).status).toBe(204);
    secrets.set('the shared test password', TEST_PASSWORD);
  });

  afterAll(async () => {
    await stack?.close();
  });

  function logFiles(): string[] {
    return readdirSync(TEST_LOG_DIR)
      .map((name) => join(TEST_LOG_DIR, name))
      .filter((p) => statSync(p).isFile());
  }

  it('should log the requests it served, so the scan reads real request lines', () => {
    const lines = readFileSync(stack.logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine);
    const requests = lines.filter((l) => l.req?.url && l.res?.statusCode);
    const urls = requests.map((l) => `${l.req?.method} ${l.req?.url} ${l.res?.statusCode}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'POST /api/v1/auth/signup 201',
        'POST /api/v1/auth/login 401',
        'POST /api/v1/auth/login 200',
        'POST /api/v1/auth/login 400',
        'POST /api/v1/auth/login 413',
        'POST /api/v1/auth/logout 204',
        expect.stringMatching(/^PUT \/api\/v1\/teams\/[\w-]+\/providers\/deepseek 200$/),
        expect.stringMatching(/^POST \/api\/v1\/teams\/[\w-]+\/tokens 201$/),
      ]),
    );
    // Lines written from inside request handling (the audit log's) are there too.
    expect(lines.some((l) => (l as { context?: string }).context === 'Audit')).toBe(true);
  });

  it('should find no password, token, cookie, CSRF value or provider key in any log file of the run', () => {
    // Also every token and key other test files of this run (or earlier ones) recorded.
    for (const value of recordedSecrets()) if (![...secrets.values()].includes(value)) secrets.set(`recorded secret ${value.slice(0, 6)}…`, value);
    const files = logFiles();
    expect(files).toContain(stack.logFile);
    // One alternation of every literal: a single pass per file (a pass per secret took seconds once
    // the log directory had grown to ~100 MB over local runs).
    const byValue = new Map([...secrets].map(([what, value]) => [value, what]));
    const anyOf = new RegExp([...byValue.keys()].map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    const found: string[] = [];
    let bytes = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      bytes += text.length;
      for (const m of text.matchAll(anyOf)) found.push(`${byValue.get(m[0])} in ${file}`);
    }
    expect(bytes).toBeGreaterThan(10_000);
    expect(found).toEqual([]);
  });
});
