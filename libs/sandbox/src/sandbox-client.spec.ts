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
});
