import Docker from 'dockerode';
import { Redis } from 'ioredis';
import { createApiApp } from '../../../apps/api/src/bootstrap';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { createWorkspace, TeamFixture, teamWithRoles } from '../api/team-fixture';
import { attachAndWrite, termWatcher, type TermSocket, type TermWatcher } from './terminal-socket';

// Issue 10 point 4: terminal history persists on the server. The api keeps the tail of every
// terminal's output in Redis; when the terminal's process is gone (its sandbox restarted, or it
// exited) the IDE still lists it, as ended, and an attach shows its saved output, read-only.
describe('terminal history across a sandbox restart', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let redis: Redis;
  const sockets: TermSocket[] = [];
  const watcher = (client: TeamFixture['owner']['client'], url = stack.url) => termWatcher(url, client, sockets);

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'term-history');
    redis = new Redis(stack.config.env.REDIS_URL);
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    redis?.disconnect();
    await stack?.close();
  });

  async function open(w: TermWatcher, workspaceId: string): Promise<string> {
    const answer = await attachAndWrite(w, 'terminal.open', { workspaceId, cols: 80, rows: 24 });
    if (!answer.ok) throw new Error(`open failed: ${JSON.stringify(answer)}`);
    return answer.data.terminal.id;
  }

  const type = (w: TermWatcher, workspaceId: string, terminalId: string, data: string) => w.socket.emitWithAck('terminal.input', { workspaceId, terminalId, data });
  const saved = (workspaceId: string, id: string, text: string) =>
    waitFor(`"${text}" saved on the server`, async () => ((await redis.get(`${stack.config.env.REDIS_PREFIX}:terminal-output:${workspaceId}:${id}`)) ?? '').includes(text));

  it('should show a terminal whose sandbox restarted as ended, with its saved history, beside a new one', async () => {
    const ws = await createWorkspace(f.owner, f.teamId, 'hist-restart');
    const w = await watcher(f.member.client);
    const id = await open(w, ws);
    await type(w, ws, id, 'echo before-restart-$((6*7))\r');
    await waitFor('the echo', async () => w.text(id).includes('before-restart-42'));
    await saved(ws, id, 'before-restart-42');

    // The sandbox restarts: every process in it, the shell included, is gone.
    await new Docker().getContainer(`${stack.sandboxPrefix}ws-${ws}`).restart({ t: 1 });

    // A reloaded IDE, on another api process too (an api restart keeps nothing in memory).
    const second = await createApiApp(stack.config);
    await second.listen(0, '127.0.0.1');
    try {
      const address = second.getHttpServer().address();
      const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const again = await watcher(f.viewer.client, otherUrl);
      const listed = await waitFor('the ended terminal in the list', async () => {
        const list = await again.socket.emitWithAck('terminal.list', { workspaceId: ws });
        return list.ok ? list.data.terminals.find((t) => t.id === id && t.ended) : undefined;
      }, 60_000);
      expect(listed.ended).toMatchObject({ exitCode: null, signal: null });

      const attached = await again.socket.emitWithAck('terminal.attach', { workspaceId: ws, terminalId: id });
      expect(attached).toMatchObject({ ok: true, data: { reset: true, ended: { exitCode: null } } });
      expect(attached.ok && attached.data.data).toContain('before-restart-42');
      // Read-only: nothing reaches a process that is gone.
      expect(await type(w, ws, id, 'echo nope\r')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });

      // A new terminal opens beside it; the ended one is still listed after the live one.
      const fresh = await open(w, ws);
      const list = await w.socket.emitWithAck('terminal.list', { workspaceId: ws });
      expect(list.ok && list.data.terminals.map((t) => [t.id, Boolean(t.ended)])).toEqual([
        [fresh, false],
        [id, true],
      ]);

      // A viewer may not dismiss it; a member may, and then it is gone for everyone.
      expect(await again.socket.emitWithAck('terminal.close', { workspaceId: ws, terminalId: id })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      expect((await w.socket.emitWithAck('terminal.close', { workspaceId: ws, terminalId: id })).ok).toBe(true);
      await waitFor('the dismissal announced', async () => again.changes.find((c) => c.change === 'closed' && c.terminalId === id));
      expect(await again.socket.emitWithAck('terminal.attach', { workspaceId: ws, terminalId: id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    } finally {
      await second.close();
    }
  });

  it('should keep a shell that exited by itself as ended with its exit code, and forget one closed on purpose', async () => {
    const ws = await createWorkspace(f.owner, f.teamId, 'hist-exit');
    const w = await watcher(f.member.client);
    const [exiting, closed] = [await open(w, ws), await open(w, ws)];
    await type(w, ws, exiting, 'echo last-words-$((2+3)); exit 3\r');
    const changed = await waitFor('the exit announced', async () => w.changes.find((c) => c.change === 'closed' && c.terminalId === exiting));
    expect(changed.terminals.find((t) => t.id === exiting)?.ended).toMatchObject({ exitCode: 3 });
    const attached = await w.socket.emitWithAck('terminal.attach', { workspaceId: ws, terminalId: exiting });
    expect(attached).toMatchObject({ ok: true, data: { ended: { exitCode: 3 } } });
    expect(attached.ok && attached.data.data).toContain('last-words-5');

    expect((await w.socket.emitWithAck('terminal.close', { workspaceId: ws, terminalId: closed })).ok).toBe(true);
    await waitFor('the close announced', async () => w.changes.find((c) => c.change === 'closed' && c.terminalId === closed));
    const list = await w.socket.emitWithAck('terminal.list', { workspaceId: ws });
    expect(list.ok && list.data.terminals.map((t) => t.id)).toEqual([exiting]);
  });
});
