import type { Socket } from 'socket.io-client';
import type { FileChange, FilesAck, FilesChangedEvent } from '@h/contracts';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { connectSocket } from '../../support/socket-client';
import { addPerson, createWorkspace, TeamFixture, teamWithRoles } from '../api/team-fixture';
import { execInSandbox, filesApi, sha256Etag, uniquePath } from './files-fixture';

// Issue 10, point 3: changes made through the API, by a command in the sandbox, or anyone else
// reach every subscribed socket as `files.changed`; viewers may watch, outsiders may not.
describe('live files over Socket.IO', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let api: ReturnType<typeof filesApi>;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startStack({ env: { SSE_HEARTBEAT_MS: '1000' } });
    f = await teamWithRoles(stack.url, 'live-files');
    api = filesApi(f.workspaceId);
    expect((await f.owner.client.post(api.entry('start.txt'), { type: 'file' })).status).toBe(201);
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack?.close();
  });

  /** A socket with the person's cookies; collects every files.changed it receives. */
  async function watcher(client: HttpClient): Promise<{ socket: Socket; changes: FileChange[]; events: FilesChangedEvent[] }> {
    const socket = await connectSocket(stack.url, client);
    sockets.push(socket);
    const changes: FileChange[] = [];
    const events: FilesChangedEvent[] = [];
    socket.on('files.changed', (e: FilesChangedEvent) => {
      events.push(e);
      changes.push(...e.changes);
    });
    return { socket, changes, events };
  }

  function subscribe(socket: Socket, workspaceId: string): Promise<FilesAck<{ workspaceId: string }>> {
    return socket.emitWithAck('files.subscribe', { workspaceId });
  }

  it('should tell a subscribed viewer about a teammate\'s write through the API, with the new ETag', async () => {
    const w = await watcher(f.viewer.client);
    expect(await subscribe(w.socket, f.workspaceId)).toEqual({ ok: true, data: { workspaceId: f.workspaceId } });
    const path = uniquePath('api-write');
    expect((await f.member.client.request('PUT', api.content(path), { content: 'from a teammate\n' })).status).toBe(201);
    const seen = await waitFor('files.changed for the API write', async () => w.changes.find((c) => c.path === path));
    expect(['created', 'changed']).toContain(seen.kind);
    expect(w.events.every((e) => e.workspaceId === f.workspaceId)).toBe(true);
    // The same ETag the API answers reads with: an editor can tell whether its tab is current.
    await waitFor('the ETag of the written content', async () => w.changes.find((c) => c.path === path && c.etag === sha256Etag('from a teammate\n')));

    expect((await f.member.client.delete(api.entry(path))).status).toBe(204);
    await waitFor('files.changed deleted', async () => w.changes.find((c) => c.path === path && c.kind === 'deleted'));
  });

  it('should tell subscribers about a file a command in the sandbox creates, outside the api', async () => {
    const w = await watcher(f.member.client);
    expect((await subscribe(w.socket, f.workspaceId)).ok).toBe(true);
    const path = uniquePath('from-shell');
    await execInSandbox(stack.sandboxPrefix, f.workspaceId, `mkdir -p cmd && printf made-by-a-command > cmd/${path}`);
    const seen = await waitFor('files.changed for the command', async () => w.changes.find((c) => c.path === `cmd/${path}` && c.etag === sha256Etag('made-by-a-command')));
    expect(seen.type).toBe('file');
  });

  it('should say git: true when a command in the sandbox commits or switches branches, and never list .git itself', async () => {
    const w = await watcher(f.member.client);
    expect((await subscribe(w.socket, f.workspaceId)).ok).toBe(true);
    const git = 'git -c user.name=t -c user.email=t@example.com';
    await execInSandbox(stack.sandboxPrefix, f.workspaceId, `git init -q -b main . && ${git} add -A && ${git} commit -qm first`);
    await waitFor('files.changed with git: true after the commit', async () => w.events.some((e) => e.git === true));

    // Only HEAD and refs change on a branch switch with nothing else touched: still news.
    const before = w.events.length;
    await execInSandbox(stack.sandboxPrefix, f.workspaceId, `${git} switch -qc other`);
    await waitFor('files.changed with git: true after the switch', async () => w.events.slice(before).some((e) => e.git === true));
    expect(w.changes.some((c) => c.path === '.git' || c.path.startsWith('.git/'))).toBe(false);
  });

  it('should send a move through the API as one renamed change', async () => {
    const w = await watcher(f.owner.client);
    expect((await subscribe(w.socket, f.workspaceId)).ok).toBe(true);
    const from = uniquePath('before-move');
    const to = `moved/${uniquePath('after-move')}`;
    await f.owner.client.post(api.entry(from), { type: 'file', content: 'm' });
    await waitFor('the created file', async () => w.changes.find((c) => c.path === from));
    expect((await f.owner.client.post(api.move(), { from, to })).status).toBe(200);
    await waitFor('renamed', async () => w.changes.find((c) => c.path === to && c.kind === 'renamed' && c.from === from));
  });

  it('should keep other workspaces\' changes away, and stop after unsubscribe', async () => {
    const other = await createWorkspace(f.owner, f.teamId, 'live-other');
    const w = await watcher(f.member.client);
    expect((await subscribe(w.socket, other)).ok).toBe(true);
    const marker = uniquePath('other-ws');
    expect((await f.owner.client.request('PUT', filesApi(other).content(marker), { content: 'x' })).status).toBe(201);
    await waitFor('the change in the subscribed workspace', async () => w.changes.find((c) => c.path === marker));
    expect(w.events.every((e) => e.workspaceId === other)).toBe(true);
    expect(await w.socket.emitWithAck('files.unsubscribe', { workspaceId: other })).toEqual({ ok: true, data: { workspaceId: other } });
    // A write after unsubscribing, then one to a workspace still watched by another socket: only
    // that one arrives there, so the first not arriving here is shown, not assumed.
    const control = await watcher(f.owner.client);
    expect((await subscribe(control.socket, other)).ok).toBe(true);
    const after = uniquePath('after-unsubscribe');
    await f.owner.client.request('PUT', filesApi(other).content(after), { content: 'y' });
    await waitFor('the control socket sees it', async () => control.changes.find((c) => c.path === after));
    expect(w.changes.find((c) => c.path === after)).toBeUndefined();
  });

  it('should refuse an outsider with NOT_FOUND and bad input with VALIDATION_FAILED', async () => {
    const w = await watcher(f.outsider.client);
    const refused = await subscribe(w.socket, f.workspaceId);
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await w.socket.emitWithAck('files.subscribe', { workspaceId: 'not-a-uuid' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await w.socket.emitWithAck('files.subscribe', { workspaceId: `${f.workspaceId}\u0000` })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    // Nothing arrives for the workspace it could not subscribe to.
    const control = await watcher(f.viewer.client);
    expect((await subscribe(control.socket, f.workspaceId)).ok).toBe(true);
    const path = uniquePath('not-for-outsiders');
    await f.member.client.request('PUT', api.content(path), { content: 'secret' });
    await waitFor('the viewer sees it', async () => control.changes.find((c) => c.path === path));
    expect(w.events).toEqual([]);
  });

  it('should end the subscription of someone removed from the team (files.error), within a heartbeat', async () => {
    const leaving = await addPerson(stack.url, f.owner, f.teamId, 'viewer', 'leaving');
    const w = await watcher(leaving.client);
    const errors: { workspaceId: string; error: { code: string } }[] = [];
    w.socket.on('files.error', (e) => errors.push(e));
    expect((await subscribe(w.socket, f.workspaceId)).ok).toBe(true);
    expect((await f.owner.client.delete(`/api/v1/teams/${f.teamId}/members/${leaving.userId}`)).status).toBe(204);
    await waitFor('files.error after the removal', async () => errors.find((e) => e.workspaceId === f.workspaceId));
    // Changes after that do not reach the removed person; a control socket shows they happened.
    const control = await watcher(f.viewer.client);
    expect((await subscribe(control.socket, f.workspaceId)).ok).toBe(true);
    const path = uniquePath('after-removal');
    await f.member.client.request('PUT', api.content(path), { content: 'private again' });
    await waitFor('the control socket sees it', async () => control.changes.find((c) => c.path === path));
    expect(w.changes.find((c) => c.path === path)).toBeUndefined();
  });
});
