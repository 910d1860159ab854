import { randomUUID } from 'node:crypto';
import { createApiApp } from '../../../apps/api/src/bootstrap';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { createWorkspace, TeamFixture, teamWithRoles } from '../api/team-fixture';
import { attachAndWrite, termWatcher, type TermSocket, type TermWatcher } from './terminal-socket';

// Issue 10, point 5: xterm.js <-> Socket.IO <-> a PTY in the sandbox. Shared terminals: every member
// sees every terminal live, viewers watch but cannot type, a dropped connection reattaches to the
// same PTY with its recent output, outsiders learn nothing.
describe('terminals over Socket.IO (PTY bridge)', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const sockets: TermSocket[] = [];
  const watcher = (client: TeamFixture['owner']['client']) => termWatcher(stack.url, client, sockets);

  beforeAll(async () => {
    stack = await startStack({ env: { TERMINALS_PER_WORKSPACE_MAX: '3', TERMINAL_INPUT_MAX_BYTES: '2048' } });
    f = await teamWithRoles(stack.url, 'pty-bridge');
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack?.close();
  });

  async function open(w: TermWatcher, workspaceId = f.workspaceId): Promise<string> {
    const answer = await attachAndWrite(w, 'terminal.open', { workspaceId, cols: 80, rows: 24 });
    if (!answer.ok) throw new Error(`open failed: ${JSON.stringify(answer)}`);
    return answer.data.terminal.id;
  }

  async function type(w: TermWatcher, terminalId: string, data: string, workspaceId = f.workspaceId) {
    return w.socket.emitWithAck('terminal.input', { workspaceId, terminalId, data });
  }

  const close = async (w: TermWatcher, terminalId: string) =>
    expect((await w.socket.emitWithAck('terminal.close', { workspaceId: f.workspaceId, terminalId })).ok).toBe(true);

  /** `echo` of arithmetic: the typed line shows `$((…))`, only the shell's answer shows the number. */
  const seen = (w: TermWatcher, id: string, text: string) => waitFor(`"${text}" in the terminal`, async () => w.text(id).includes(text));

  it('should open a shell, echo what a member types, and resize it', async () => {
    const w = await watcher(f.member.client);
    const id = await open(w);
    expect(await type(w, id, 'echo hello-$((40+2))\r')).toEqual({ ok: true, data: null });
    await seen(w, id, 'hello-42');

    // Keys sent one message each, without waiting for acks (a fast typist): they arrive in order.
    const keys = [...'echo typed-$((3*3))\r'].map((k) => type(w, id, k));
    expect((await Promise.all(keys)).every((a) => a.ok)).toBe(true);
    await seen(w, id, 'typed-9');

    expect(await w.socket.emitWithAck('terminal.resize', { workspaceId: f.workspaceId, terminalId: id, cols: 123, rows: 31 })).toEqual({ ok: true, data: null });
    await type(w, id, 'stty size\r');
    await seen(w, id, '31 123');
    const list = await w.socket.emitWithAck('terminal.list', { workspaceId: f.workspaceId });
    expect(list.ok && list.data.terminals.find((t) => t.id === id)).toMatchObject({ cols: 123, rows: 31, agent: false, openedBy: f.member.userId });
    await close(w, id);
  });

  it('should reattach after a dropped connection to the same PTY with its output, and continue without duplicates', async () => {
    const first = await watcher(f.member.client);
    const id = await open(first);
    await type(first, id, 'export MARK=kept-$((6*7)); echo before-$((1+1))\r');
    await seen(first, id, 'before-2');
    const end = first.ends.get(id) as number;
    first.socket.disconnect();

    // A reload: a new socket, nothing known, gets the scrollback.
    const reload = await watcher(f.member.client);
    const again = await attachAndWrite(reload, 'terminal.attach', { workspaceId: f.workspaceId, terminalId: id });
    expect(again).toMatchObject({ ok: true, data: { reset: true, terminal: { id } } });
    expect(reload.text(id)).toContain('before-2');
    // The same shell: its variable is still set.
    await type(reload, id, 'echo "$MARK"\r');
    await seen(reload, id, 'kept-42');

    // A reconnect that says where it stopped gets only the rest.
    const resumed = await watcher(f.member.client);
    resumed.output.set(id, 'X'.repeat(3));
    const rest = await attachAndWrite(resumed, 'terminal.attach', { workspaceId: f.workspaceId, terminalId: id, after: end });
    expect(rest.ok && rest.data.reset).toBe(false);
    expect(resumed.text(id).startsWith('XXX')).toBe(true);
    expect(resumed.text(id)).not.toContain('before-2');
    expect(resumed.text(id)).toContain('kept-42');
    await type(resumed, id, 'echo after-$((2+3))\r');
    await seen(resumed, id, 'after-5');
    await seen(reload, id, 'after-5');
    expect(reload.text(id).split('after-5').length - 1).toBe(1);

    // Attaching twice on one socket is idempotent: one output stream, not two.
    await attachAndWrite(reload, 'terminal.attach', { workspaceId: f.workspaceId, terminalId: id, after: reload.ends.get(id) });
    await type(reload, id, 'echo once-$((3+4))\r');
    await seen(reload, id, 'once-7');
    await seen(resumed, id, 'once-7');
    expect(reload.text(id).split('once-7').length - 1).toBe(1);
    await close(reload, id);
  });

  it('should show a teammate the output live, and refuse a viewer\'s keystrokes without touching the PTY', async () => {
    const member = await watcher(f.member.client);
    const viewer = await watcher(f.viewer.client);
    const id = await open(member);
    expect(await attachAndWrite(viewer, 'terminal.attach', { workspaceId: f.workspaceId, terminalId: id })).toMatchObject({ ok: true });
    await type(member, id, 'echo live-$((5+5))\r');
    await seen(viewer, id, 'live-10');

    const refused = await type(viewer, id, 'echo viewer-typed-$((9+9))\r');
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await viewer.socket.emitWithAck('terminal.resize', { workspaceId: f.workspaceId, terminalId: id, cols: 20, rows: 5 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await viewer.socket.emitWithAck('terminal.open', { workspaceId: f.workspaceId, cols: 80, rows: 24 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await viewer.socket.emitWithAck('terminal.close', { workspaceId: f.workspaceId, terminalId: id })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    // What follows a refusal arrives; the refused line never ran.
    await type(member, id, 'echo control-$((7+7))\r');
    await seen(viewer, id, 'control-14');
    expect(viewer.text(id)).not.toContain('viewer-typed');
    // Its output would be `viewer-typed-18` (the prompt's container hostname may hold a bare "18").
    expect(member.text(id)).not.toContain('viewer-typed-18');
    await close(member, id);
  });

  it('should tell every watcher when a server started in any terminal serves a page, once per URL, and list it again on reattach', async () => {
    const member = await watcher(f.member.client);
    const viewer = await watcher(f.viewer.client);
    const previews: { terminalId: string; url: string }[] = [];
    viewer.socket.on('terminal.preview', (e) => previews.push(e));
    expect((await viewer.socket.emitWithAck('terminal.list', { workspaceId: f.workspaceId })).ok).toBe(true);
    const id = await open(member);
    // A plain shell, not the agent's run_in_terminal: python's server prints http://127.0.0.1:8123/.
    await type(member, id, 'cd /tmp && python3 -m http.server 8123 --bind 127.0.0.1 &\r');
    const url = 'http://127.0.0.1:8123/';
    await waitFor('terminal.preview for the server', async () => previews.find((p) => p.terminalId === id && p.url === url), 30_000);
    // The same URL printed again (still served) is not offered twice, one nobody serves is not
    // offered at all, and a second server in the same terminal is.
    await type(member, id, 'echo http://127.0.0.1:8123/ http://localhost:8125/ && python3 -m http.server 8124 --bind 127.0.0.1\r');
    const second = 'http://127.0.0.1:8124/';
    await waitFor('terminal.preview for the second server', async () => previews.find((p) => p.url === second), 30_000);
    expect(previews.filter((p) => p.terminalId === id).map((p) => p.url)).toEqual([url, second]);
    await type(member, id, '\x03kill %1\r');

    const again = await attachAndWrite(await watcher(f.viewer.client), 'terminal.attach', { workspaceId: f.workspaceId, terminalId: id });
    expect(again).toMatchObject({ ok: true, data: { previews: [url, second] } });
    await close(member, id);
  });

  it('should refuse another team with NOT_FOUND, and bad input with VALIDATION_FAILED or PAYLOAD_TOO_LARGE', async () => {
    const member = await watcher(f.member.client);
    const id = await open(member);
    const outsider = await watcher(f.outsider.client);
    for (const answer of [
      await outsider.socket.emitWithAck('terminal.list', { workspaceId: f.workspaceId }),
      await outsider.socket.emitWithAck('terminal.attach', { workspaceId: f.workspaceId, terminalId: id }),
      await type(outsider, id, 'echo outsider\r'),
      await outsider.socket.emitWithAck('terminal.open', { workspaceId: f.workspaceId, cols: 80, rows: 24 }),
      await outsider.socket.emitWithAck('terminal.close', { workspaceId: f.workspaceId, terminalId: id }),
    ]) {
      expect(answer).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    }
    // A terminal id from this workspace under the outsider's own workspace: not found there either.
    const theirs = await createWorkspace(f.outsider, f.outsiderTeamId, 'pty-outsider-ws');
    expect(await outsider.socket.emitWithAck('terminal.attach', { workspaceId: theirs, terminalId: id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(outsider.text(id)).toBe('');

    expect(await member.socket.emitWithAck('terminal.attach', { workspaceId: f.workspaceId, terminalId: randomUUID() })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await member.socket.emitWithAck('terminal.open', { workspaceId: f.workspaceId, cols: 0, rows: 24 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await member.socket.emitWithAck('terminal.input', { workspaceId: f.workspaceId, terminalId: id, data: 'x\u0000' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await type(member, id, 'y'.repeat(3000))).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('should close a terminal for everyone and keep to TERMINALS_PER_WORKSPACE_MAX', async () => {
    const ws = await createWorkspace(f.owner, f.teamId, 'pty-close');
    const owner = await watcher(f.owner.client);
    const viewer = await watcher(f.viewer.client);
    expect(await viewer.socket.emitWithAck('terminal.list', { workspaceId: ws })).toMatchObject({ ok: true, data: { terminals: [], max: 3 } });
    const ids = [await open(owner, ws), await open(owner, ws), await open(owner, ws)];
    expect(await owner.socket.emitWithAck('terminal.open', { workspaceId: ws, cols: 80, rows: 24 })).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
    await waitFor('the viewer hears of all three', async () => viewer.changes.find((c) => c.change === 'opened' && c.terminals.length === 3));
    // Renamed for everyone; a viewer may not rename.
    expect(await owner.socket.emitWithAck('terminal.rename', { workspaceId: ws, terminalId: ids[2], title: 'dev server' })).toMatchObject({ ok: true, data: { id: ids[2], title: 'dev server' } });
    const renamed = await waitFor('terminal.changed renamed', async () => viewer.changes.find((c) => c.change === 'renamed' && c.terminalId === ids[2]));
    expect(renamed.terminals.find((t) => t.id === ids[2])?.title).toBe('dev server');
    expect(await viewer.socket.emitWithAck('terminal.rename', { workspaceId: ws, terminalId: ids[2], title: 'mine' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await owner.socket.emitWithAck('terminal.rename', { workspaceId: ws, terminalId: ids[2], title: ' ' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });

    expect(await owner.socket.emitWithAck('terminal.close', { workspaceId: ws, terminalId: ids[0] })).toEqual({ ok: true, data: { workspaceId: ws, terminalId: ids[0] } });
    await waitFor('terminal.exit for the viewer', async () => viewer.exits.find((e) => e.terminalId === ids[0]));
    const changed = await waitFor('terminal.changed closed', async () => viewer.changes.find((c) => c.change === 'closed' && c.terminalId === ids[0]));
    expect(changed.terminals.map((t) => t.id).sort()).toEqual(ids.slice(1).sort());
    // A shell that exits by itself ends the same way.
    await type(owner, ids[1], 'exit 3\r', ws);
    const exit = await waitFor('the shell exit', async () => viewer.exits.find((e) => e.terminalId === ids[1]));
    expect(exit.exitCode).toBe(3);
    expect(await owner.socket.emitWithAck('terminal.attach', { workspaceId: ws, terminalId: ids[0] })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await open(owner, ws)).toEqual(expect.any(String));
  });

  it('should share a terminal across two api processes: opened on one, attached, typed into and closed through the other', async () => {
    // A second api process on the same database, Redis and sandboxes (another replica).
    const second = await createApiApp(stack.config);
    await second.listen(0, '127.0.0.1');
    try {
      const address = second.getHttpServer().address();
      const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const here = await watcher(f.member.client);
      const there = await termWatcher(otherUrl, f.owner.client, sockets);
      expect((await there.socket.emitWithAck('terminal.list', { workspaceId: f.workspaceId })).ok).toBe(true);
      const id = await open(here);
      // The other process hears of it from the sandbox itself.
      await waitFor('terminal.changed on the other api process', async () => there.changes.find((c) => c.change === 'opened' && c.terminalId === id));
      expect(await attachAndWrite(there, 'terminal.attach', { workspaceId: f.workspaceId, terminalId: id })).toMatchObject({ ok: true });
      expect(await there.socket.emitWithAck('terminal.input', { workspaceId: f.workspaceId, terminalId: id, data: 'echo across-$((50+5))\r' })).toEqual({ ok: true, data: null });
      await seen(here, id, 'across-55');
      await seen(there, id, 'across-55');
      expect(here.text(id).split('across-55').length - 1).toBe(1);
      expect((await there.socket.emitWithAck('terminal.close', { workspaceId: f.workspaceId, terminalId: id })).ok).toBe(true);
      await waitFor('terminal.exit on the opening process', async () => here.exits.find((e) => e.terminalId === id));
    } finally {
      await second.close();
    }
  });
});
