import { PassThrough } from 'node:stream';
import { RPC_APP_ERROR, RPC_METHOD_NOT_FOUND, RpcError, RpcPeer } from './ndjson-rpc';

function pair(): { client: RpcPeer; server: RpcPeer; toServer: PassThrough; toClient: PassThrough } {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  return { client: new RpcPeer(toClient, toServer), server: new RpcPeer(toServer, toClient), toServer, toClient };
}

describe(RpcPeer.name, () => {
  it('should answer requests and deliver notifications both ways', async () => {
    const { client, server } = pair();
    server.onRequest('add', (p: { a: number; b: number }) => p.a + p.b);
    const got: unknown[] = [];
    client.onNotification('tick', (p) => got.push(p));
    server.onRequest('ping', (_p, { peer }) => {
      peer.notify('tick', { n: 1 });
      return 'pong';
    });
    expect(await client.request('add', { a: 2, b: 3 })).toBe(5);
    expect(await client.request('ping')).toBe('pong');
    expect(got).toEqual([{ n: 1 }]);
  });

  it('should carry application error codes and report unknown methods', async () => {
    const { client, server } = pair();
    server.onRequest('fail', () => {
      throw new RpcError(RPC_APP_ERROR, 'nope', { code: 'NOT_FOUND' });
    });
    await expect(client.request('fail')).rejects.toMatchObject({ code: RPC_APP_ERROR, data: { code: 'NOT_FOUND' } });
    await expect(client.request('missing')).rejects.toMatchObject({ code: RPC_METHOD_NOT_FOUND });
  });

  it('should reassemble lines split across chunks, including multi-byte characters', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const server = new RpcPeer(toServer, toClient);
    server.onRequest('echo', (p: { s: string }) => p.s);
    const line = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: { s: 'ünïcødé ✓ '.repeat(1000) } }) + '\n');
    const answer = new Promise<string>((r) => {
      let acc = '';
      toClient.on('data', (b: Buffer) => {
        acc += b.toString();
        if (acc.endsWith('\n')) r(acc);
      });
    });
    for (let i = 0; i < line.length; i += 7) toServer.write(line.subarray(i, i + 7));
    expect(JSON.parse(await answer).result).toBe('ünïcødé ✓ '.repeat(1000));
  });

  it('should cancel a running request through $/cancel', async () => {
    const { client, server } = pair();
    server.onRequest('wait', (_p, { signal }) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new RpcError(-32800, 'cancelled')))));
    const ac = new AbortController();
    const running = client.request('wait', {}, ac.signal);
    ac.abort();
    await expect(running).rejects.toMatchObject({ code: -32800 });
  });

  it('should reject pending requests when the connection closes', async () => {
    const { client, server } = pair();
    server.onRequest('never', () => new Promise(() => undefined));
    const pending = client.request('never');
    client.close();
    await expect(pending).rejects.toMatchObject({ data: { code: 'UNAVAILABLE' } });
  });

  it('should still answer requests in flight after the caller half-closes', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const server = new RpcPeer(toServer, toClient);
    server.onRequest('slow', () => new Promise((r) => setTimeout(() => r('done'), 20)));
    let out = '';
    toClient.on('data', (b: Buffer) => (out += b.toString()));
    const ended = new Promise((r) => toClient.on('end', r));
    toServer.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'slow' }) + '\n');
    await ended;
    expect(JSON.parse(out)).toEqual({ jsonrpc: '2.0', id: 9, result: 'done' });
  });

  it('should close the connection on a line longer than its cap instead of buffering it', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const server = new RpcPeer(toServer, toClient, { maxLineBytes: 1024 });
    const closed = new Promise<Error | undefined>((r) => server.onClose(r));
    toServer.write('{"jsonrpc":"2.0","id":1,"method":"x","params":"' + 'a'.repeat(4096));
    expect((await closed)?.message).toMatch(/^line too long/);
  });

  it('should reset the connection on an enormous complete line without parsing or keeping it, and fail the calls in flight', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough({ highWaterMark: 64 * 1024 });
    const reports: Array<{ maxLineBytes: number; receivedBytes: number }> = [];
    const client = new RpcPeer(toClient, toServer, { maxLineBytes: 64 * 1024, onLineTooLong: (info) => reports.push(info) });
    let parsed = 0;
    client.onNotification('big', () => parsed++);
    const call = client.request('anything');
    // A fake sandbox answering with a 16 MB line (with its newline) in one write.
    toClient.write(JSON.stringify({ jsonrpc: '2.0', method: 'big', params: 'z'.repeat(16 * 1024 * 1024) }) + '\n');
    await expect(call).rejects.toMatchObject({ message: expect.stringMatching(/^line too long/), data: { code: 'TOO_LARGE', maxLineBytes: 64 * 1024 } });
    expect(parsed).toBe(0);
    expect(client.closed).toBe(true);
    expect(reports).toHaveLength(1);
    expect(reports[0].maxLineBytes).toBe(64 * 1024);
    expect(reports[0].receivedBytes).toBeGreaterThan(64 * 1024);
    // Whatever else arrives after the reset is dropped, not buffered or parsed.
    toClient.write(JSON.stringify({ jsonrpc: '2.0', method: 'big', params: 'ok' }) + '\n');
    await new Promise((r) => setImmediate(r));
    expect(parsed).toBe(0);
    await expect(client.request('later')).rejects.toMatchObject({ message: expect.stringMatching(/^line too long/) });
  });

  it('should never hold more than the cap plus one chunk of an unfinished line', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const peer = new RpcPeer(toClient, toServer, { maxLineBytes: 100_000 });
    const held = () => (peer as unknown as { partsBytes: number }).partsBytes;
    let most = 0;
    for (let i = 0; i < 200 && !peer.closed; i++) {
      toClient.write('q'.repeat(1000));
      await new Promise((r) => setImmediate(r));
      most = Math.max(most, held());
    }
    expect(peer.closed).toBe(true);
    expect(most).toBeLessThanOrEqual(100_000);
    expect(held()).toBe(0);
  });

  it('should accept lines up to the cap, counted in UTF-8 bytes', async () => {
    const { client, server } = pair();
    server.onRequest('echo', (p: { s: string }) => p.s);
    const text = '✓'.repeat(100_000);
    expect(await client.request('echo', { s: text })).toBe(text);
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const small = new RpcPeer(toServer, toClient, { maxLineBytes: 1000 });
    small.onRequest('echo', (p: { s: string }) => p.s);
    const closed = new Promise<Error | undefined>((r) => small.onClose(r));
    // 400 characters but 1200 bytes: over a 1000-byte cap.
    toServer.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: { s: '✓'.repeat(400) } }) + '\n');
    expect((await closed)?.message).toMatch(/^line too long/);
  });
});
