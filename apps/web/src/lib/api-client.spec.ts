import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, ApiError, loginPathFor } from './api-client';

describe(loginPathFor.name, () => {
  it('should remember the page the user was on when the session ends', () => {
    expect(loginPathFor({ pathname: '/teams/t1', search: '?tab=tokens' })).toBe('/login?next=%2Fteams%2Ft1%3Ftab%3Dtokens');
  });

  it('should not loop back to the login page itself', () => {
    expect(loginPathFor({ pathname: '/login', search: '?next=%2Fteams' })).toBe('/login');
    expect(loginPathFor({ pathname: '/', search: '' })).toBe('/login');
  });
});

// The client runs in the browser; here it talks to a real HTTP server over loopback, with the
// cookie jar and location the browser would provide.
describe('api client', () => {
  let server: Server;
  let base: string;
  let seen: { method?: string; csrf?: string; contentType?: string; body: string }[];
  let reply: (req: IncomingMessage) => { status: number; body?: string; type?: string };
  const assigned: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, csrf: req.headers['x-csrf-token'] as string | undefined, contentType: req.headers['content-type'], body });
        const answer = reply(req);
        res.writeHead(answer.status, answer.body === undefined ? {} : { 'content-type': answer.type ?? 'application/json' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(globalThis, {
      document: { cookie: 'theme=light; h_csrf=csrf%2Dvalue-1; other=x' },
      window: { location: { pathname: '/teams/t1', search: '', assign: (url: string) => assigned.push(url) } },
    });
  });

  afterAll(async () => {
    delete (globalThis as Record<string, unknown>).document;
    delete (globalThis as Record<string, unknown>).window;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen = [];
    assigned.length = 0;
    reply = () => ({ status: 200, body: '{"ok":true}' });
  });

  it('should send the CSRF cookie as x-csrf-token on writes and the body as JSON', async () => {
    await expect(api.post(`${base}/api/v1/teams`, { name: 'Platform' })).resolves.toEqual({ ok: true });
    expect(seen[0]).toEqual({ method: 'POST', csrf: 'csrf-value-1', contentType: 'application/json', body: '{"name":"Platform"}' });
  });

  it('should not send the CSRF token on reads', async () => {
    await api.get(`${base}/api/v1/teams`);
    expect(seen[0].csrf).toBeUndefined();
  });

  it('should surface the api error message and code when a request fails', async () => {
    reply = () => ({ status: 409, body: JSON.stringify({ error: { code: 'EMAIL_TAKEN', message: 'That email already has an account.' } }) });
    const error = await api.post(`${base}/api/v1/auth/signup`, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'EMAIL_TAKEN', message: 'That email already has an account.' });
  });

  it('should give a readable message when the server answers with something other than the error JSON', async () => {
    reply = () => ({ status: 502, body: '<html>Bad gateway</html>', type: 'text/html' });
    await expect(api.get(`${base}/api/v1/me`)).rejects.toMatchObject({ status: 502, message: 'The server answered 502. Please try again.' });
  });

  it('should resolve to undefined on 204 No Content', async () => {
    reply = () => ({ status: 204 });
    await expect(api.delete(`${base}/api/v1/teams/t/tokens/x`)).resolves.toBeUndefined();
  });

  it('should send the browser to login, remembering the page, when the session has ended', async () => {
    reply = () => ({ status: 401, body: JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Sign in first.' } }) });
    void api.get(`${base}/api/v1/me`);
    await new Promise<void>((resolve) => {
      const check = () => (assigned.length ? resolve() : setImmediate(check));
      check();
    });
    expect(assigned).toEqual(['/login?next=%2Fteams%2Ft1']);
  });

  it('should let login forms show a 401 instead of redirecting', async () => {
    reply = () => ({ status: 401, body: JSON.stringify({ error: { code: 'INVALID_CREDENTIALS', message: 'Email or password is wrong.' } }) });
    await expect(api.post(`${base}/api/v1/auth/login`, {}, { redirectOnUnauthorized: false })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    expect(assigned).toEqual([]);
  });

  it('should report a network failure in words a user understands', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(api.get(`http://127.0.0.1:${port}/api/v1/me`)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });
});
