import { EventEmitter } from 'node:events';
import type { Socket } from 'socket.io';
import type { SandboxClient } from '@h/sandbox';
import type { FileSandboxService } from './file-sandbox.service';
import { SandboxRelay, type SandboxRelayHooks } from './sandbox-relay';

class FakeClient extends EventEmitter {
  closed = false;
  close(): void {
    this.closed = true;
    this.emit('close');
  }
}

function setup(hooks: Partial<SandboxRelayHooks<{ n: number }>> = {}) {
  const listeners: ((workspaceId: string, client: SandboxClient) => void)[] = [];
  let current = new FakeClient();
  const sandbox = {
    onConnected: (l: (workspaceId: string, client: SandboxClient) => void) => listeners.push(l),
    client: jest.fn(async (workspaceId: string) => {
      // Like FileSandboxService: listeners hear of the connection after an await (the sandbox's record).
      await Promise.resolve();
      const c = current as unknown as SandboxClient;
      for (const l of listeners) l(workspaceId, c);
      return c;
    }),
  } as unknown as FileSandboxService;
  const calls = { start: 0, stop: [] as (SandboxClient | null)[], rearmed: 0, unlisten: 0 };
  const relay = new SandboxRelay<{ n: number }>(sandbox, {
    create: () => ({ n: 0 }),
    listen: () => () => void calls.unlisten++,
    start: async () => void calls.start++,
    rearmed: () => void calls.rearmed++,
    stop: (_w, client) => void calls.stop.push(client),
    ...hooks,
  });
  const reconnect = () => (current = new FakeClient());
  return { relay, sandbox, calls, client: () => current, reconnect };
}

const socket = (id: string) => ({ id }) as Socket;

describe(SandboxRelay.name, () => {
  it('should arm once per workspace and stop when the last socket leaves', async () => {
    const { relay, calls, client } = setup();
    await relay.add('w', socket('a'));
    await relay.add('w', socket('b'));
    expect(calls.start).toBe(1);
    relay.remove('w', 'a');
    expect(calls.stop).toEqual([]);
    relay.remove('w', 'b');
    expect(calls.stop).toEqual([client()]);
    expect(calls.unlisten).toBe(1);
    expect(relay.get('w')).toBeUndefined();
  });

  it('should re-arm on the next connection after one dropped and say so', async () => {
    const { relay, sandbox, calls, client, reconnect } = setup();
    const w = await relay.add('w', socket('a'));
    client().close();
    expect(w.client).toBeNull();
    reconnect();
    await sandbox.client('w');
    await new Promise((r) => setImmediate(r));
    expect(calls.start).toBe(2);
    expect(calls.rearmed).toBe(1);
    expect(w.client).toBe(client());
  });

  it('should take the socket out again when the stream cannot be turned on', async () => {
    const { relay } = setup({
      start: async () => {
        throw new Error('refused');
      },
    });
    await expect(relay.add('w', socket('a'))).rejects.toThrow('refused');
    expect(relay.get('w')).toBeUndefined();
  });

  it('should turn the stream off on its connection when everyone left while it was turned on', async () => {
    let release = () => undefined as void;
    const { relay, calls, client } = setup({ start: () => new Promise<void>((r) => (release = r)) });
    const adding = relay.add('w', socket('a'));
    await new Promise((r) => setImmediate(r));
    relay.remove('w', 'a');
    release();
    await adding;
    expect(calls.stop).toContain(client());
  });
});
