import { Logger } from '@nestjs/common';
import { PassThrough } from 'node:stream';
import { WorkspaceError } from '@h/contracts';
import { RpcPeer, type FsReadParams } from '@h/sandbox-protocol';
import { SandboxClient } from './sandbox-client';
import { DEFAULT_READ_MAX_BYTES, SandboxWorkspace } from './sandbox-workspace';

/** A client wired to a fake sandboxd (an RpcPeer on the other end of two pipes). */
function fakeSandbox(maxLineBytes?: number): { client: SandboxClient; sandbox: RpcPeer } {
  const toSandbox = new PassThrough();
  const toHost = new PassThrough();
  return { client: new SandboxClient(toHost, toSandbox, undefined, { maxLineBytes }), sandbox: new RpcPeer(toSandbox, toHost) };
}

describe(SandboxClient.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('should reset the connection, log an error and fail the call when a sandbox answers with a line over the host cap', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { client, sandbox } = fakeSandbox(256 * 1024);
    sandbox.onRequest('fs.read', () => ({ content: 'a'.repeat(2 * 1024 * 1024), encoding: 'utf8', size: 2 * 1024 * 1024 }));
    const ws = new SandboxWorkspace(async () => client);
    const read = ws.readTextFile('huge.txt');
    await expect(read).rejects.toBeInstanceOf(WorkspaceError);
    await expect(read).rejects.toMatchObject({ code: 'TOO_LARGE', message: expect.stringMatching(/^line too long/) });
    expect(client.closed).toBe(true);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ maxLineBytes: 256 * 1024 }), expect.stringContaining('over the host cap'));
  });

  it('should send a byte limit with every file read: the host cap, or a smaller one the caller asks for', async () => {
    const { client, sandbox } = fakeSandbox();
    const seen: FsReadParams[] = [];
    sandbox.onRequest('fs.read', (p: FsReadParams) => {
      seen.push(p);
      return { content: '', encoding: p.encoding ?? 'utf8', size: 0 };
    });
    await new SandboxWorkspace(async () => client).readTextFile('a.txt');
    const capped = new SandboxWorkspace(async () => client, { readMaxBytes: 4096 });
    await capped.readFile('b.bin');
    await capped.readTextFile('c.txt', { maxBytes: 100 });
    await capped.readTextFile('d.txt', { maxBytes: 1e9 });
    expect(seen.map((p) => p.maxBytes)).toEqual([DEFAULT_READ_MAX_BYTES, 4096, 100, 4096]);
  });

  it('should deliver output and the exit of a terminal that arrive in the same read as the open answer', async () => {
    const toSandbox = new PassThrough();
    const toHost = new PassThrough();
    const client = new SandboxClient(toHost, toSandbox);
    toSandbox.on('data', (chunk: Buffer) => {
      const req = JSON.parse(chunk.toString().trim().split('\n')[0]);
      if (req.method !== 'pty.open') return; // the client's pty.ack notifications
      // One write: the answer, the first output and the exit (a command that fails at once).
      toHost.write(
        [
          { jsonrpc: '2.0', id: req.id, result: { ptyId: 'p1', pid: 7 } },
          { jsonrpc: '2.0', method: 'pty.output', params: { ptyId: 'p1', data: 'boom\r\n', end: 6 } },
          { jsonrpc: '2.0', method: 'pty.exit', params: { ptyId: 'p1', exitCode: 3, signal: null } },
        ]
          .map((m) => JSON.stringify(m))
          .join('\n') + '\n',
      );
    });
    const seen: string[] = [];
    let exitCode: number | null = null;
    const t = await client.openTerminal({ command: 'false' }, (term) => {
      term.on('data', (d, end) => seen.push(`${d}@${end}`));
      term.on('exit', (e) => (exitCode = e.exitCode));
    });
    expect(seen).toEqual(['boom\r\n@6']);
    expect(exitCode).toBe(3);
    expect(t.exited).toBe(true);
    client.close();
  });
});
