import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelError } from '@h/llm';
import { createGuardedFetch } from './guarded-fetch';

// A loopback server stands for a provider on H's own network: reachable only when approved.
describe(createGuardedFetch.name, () => {
  let server: Server;
  let port: number;
  const seen: { method?: string; url?: string; body: string; auth?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body, auth: req.headers.authorization });
        if (req.url === '/v1/redirect') {
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-served': 'yes' });
        res.write('data: one\n\n');
        setTimeout(() => res.end('data: two\n\n'), 20);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (seen.length = 0));

  const refusal = (sent: Promise<unknown>): Promise<ModelError> =>
    sent.then(
      () => Promise.reject(new Error('expected a refusal')),
      (err: unknown) => err as ModelError,
    );

  it('should refuse a loopback address or plain http that the instance did not approve, sending nothing', async () => {
    const fetchGuarded = createGuardedFetch([], 'provider "Lab"');
    const err = await refusal(fetchGuarded(`http://127.0.0.1:${port}/v1/models`));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/^provider "Lab": Plain http is refused for 127\.0\.0\.1/);
    expect(seen).toEqual([]);
  });

  it('should check the addresses a name resolves to when it connects (a name passes the shape check)', async () => {
    // https to a name is fine by its shape; the name resolving to loopback is caught at connection time.
    const err = await refusal(createGuardedFetch([], 'provider "Lab"')(`https://localhost:${port}/v1/models`));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(/^provider "Lab": localhost is on a loopback address \((127\.0\.0\.1|::1)\).*PROVIDER_ALLOWED_INTERNAL_HOSTS/);
    expect(seen).toEqual([]);
  });

  it('should reach an approved internal host, passing method, headers and body and streaming the answer', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const fetchGuarded = createGuardedFetch([host], 'provider "Lab"');
      const res = await fetchGuarded(`http://${host === 'localhost' ? 'localhost' : '127.0.0.1'}:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-lab', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-served')).toBe('yes');
      expect(await res.text()).toBe('data: one\n\ndata: two\n\n');
    }
    expect(seen).toEqual([
      { method: 'POST', url: '/v1/chat/completions', body: '{"model":"m"}', auth: 'Bearer sk-lab' },
      { method: 'POST', url: '/v1/chat/completions', body: '{"model":"m"}', auth: 'Bearer sk-lab' },
    ]);
  });

  it('should not follow a redirect, naming where it pointed', async () => {
    const err = await refusal(createGuardedFetch(['127.0.0.1'], 'provider "Lab"')(`http://127.0.0.1:${port}/v1/redirect`));
    expect(err.message).toBe(
      `provider "Lab": http://127.0.0.1:${port} answered with a redirect (HTTP 302 to http://169.254.169.254/latest/meta-data); H does not follow redirects from a team's provider. Set the final URL as the base URL.`,
    );
    expect(seen.map((s) => s.url)).toEqual(['/v1/redirect']);
  });

  it('should refuse user info in a request URL', async () => {
    const err = await refusal(createGuardedFetch(['127.0.0.1'], 'provider "Lab"')(`http://u:p@127.0.0.1:${port}/v1/models`));
    expect(err.message).toMatch(/must not carry a user name or password/);
    expect(seen).toEqual([]);
  });

  it('should stop at once when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createGuardedFetch(['127.0.0.1'], 'x')(`http://127.0.0.1:${port}/v1/models`, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
