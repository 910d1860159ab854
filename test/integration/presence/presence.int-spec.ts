import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import type { Ack, PresenceState } from '@h/contracts';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { connectSocket } from '../../support/socket-client';
import { TEST_REDIS_URL } from '../../support/test-env';
import { TeamFixture, teamWithRoles } from '../api/team-fixture';

// Issue 10, point 9: who is in a workspace and which file they have open, over Socket.IO, across
// two api processes sharing Redis (as replicas do); viewers are present, outsiders are refused.
const TTL_MS = 1500;

describe('presence over Socket.IO', () => {
  const prefix = `h-test-presence-${Date.now().toString(36)}`;
  let a: TestStack;
  let b: TestStack;
  let f: TeamFixture;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Two api processes of one deployment: same database, same Redis prefix (adapter and presence).
    const env = { REDIS_PREFIX: prefix, PRESENCE_TTL_MS: String(TTL_MS), SSE_HEARTBEAT_MS: '1000' };
    [a, b] = await Promise.all([startStack({ env }), startStack({ env })]);
    f = await teamWithRoles(a.url, 'presence');
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all([a?.close(), b?.close()]);
  });

  /** A socket of `client`'s browser session on `stack`; keeps every presence.state it receives. */
  async function connect(client: HttpClient, stack: TestStack = a): Promise<{ socket: Socket; states: PresenceState[]; latest(): PresenceState | undefined }> {
    const socket = await connectSocket(stack.url, client);
    sockets.push(socket);
    const states: PresenceState[] = [];
    socket.on('presence.state', (s: PresenceState) => states.push(s));
    // What a client shows: the state with the highest version it has seen.
    const latest = () => states.reduce<PresenceState | undefined>((best, s) => (!best || s.version > best.version ? s : best), undefined);
    return { socket, states, latest };
  }

  const join = (socket: Socket, workspaceId: string, file?: string | null): Promise<Ack<PresenceState>> =>
    socket.emitWithAck('presence.join', file === undefined ? { workspaceId } : { workspaceId, file });
  const update = (socket: Socket, workspaceId: string, file: string | null): Promise<Ack<PresenceState>> => socket.emitWithAck('presence.update', { workspaceId, file });
  const names = (s: PresenceState | undefined) => (s?.members ?? []).map((m) => m.name).sort();

  it('should show two people each other, with the file each has open, and take one out when they leave', async () => {
    const owner = await connect(f.owner.client);
    const viewer = await connect(f.viewer.client);
    const joined = await join(owner.socket, f.workspaceId, 'src/app.ts');
    expect(joined).toMatchObject({ ok: true, data: { workspaceId: f.workspaceId, members: [{ userId: f.owner.userId, name: 'presence-owner', file: 'src/app.ts', clients: 1 }] } });

    // Viewers are present too; both sockets hear the new state.
    expect((await join(viewer.socket, f.workspaceId)).ok).toBe(true);
    for (const s of [owner, viewer]) await waitFor('both people in the state', async () => names(s.latest()).join() === 'presence-owner,presence-viewer');
    const seen = viewer.latest() as PresenceState;
    expect(seen.members.find((m) => m.userId === f.owner.userId)).toMatchObject({ file: 'src/app.ts', clients: 1 });
    expect(seen.members.find((m) => m.userId === f.viewer.userId)).toMatchObject({ file: null });
    expect(Number.isNaN(Date.parse(seen.members[0].since))).toBe(false);

    // A file switch reaches the other person.
    expect((await update(viewer.socket, f.workspaceId, 'README.md')).ok).toBe(true);
    await waitFor('the viewer\'s file at the owner', async () => owner.latest()?.members.find((m) => m.userId === f.viewer.userId)?.file === 'README.md');

    // Leaving on purpose and disconnecting both take a person out for the others.
    expect(await viewer.socket.emitWithAck('presence.leave', { workspaceId: f.workspaceId })).toEqual({ ok: true, data: { workspaceId: f.workspaceId } });
    await waitFor('the viewer gone after leave', async () => names(owner.latest()).join() === 'presence-owner');
    expect((await join(viewer.socket, f.workspaceId, 'b.txt')).ok).toBe(true);
    await waitFor('the viewer back', async () => names(owner.latest()).length === 2);
    viewer.socket.disconnect();
    await waitFor('the viewer gone after disconnect', async () => names(owner.latest()).join() === 'presence-owner');
    owner.socket.disconnect();
  });

  it('should count one person\'s two tabs as one member and show the file of the tab used last', async () => {
    const tab1 = await connect(f.member.client);
    const tab2 = await connect(f.member.client);
    const other = await connect(f.admin.client);
    expect((await join(other.socket, f.workspaceId)).ok).toBe(true);
    expect((await join(tab1.socket, f.workspaceId, 'one.ts')).ok).toBe(true);
    expect((await join(tab2.socket, f.workspaceId, 'two.ts')).ok).toBe(true);
    const member = () => other.latest()?.members.find((m) => m.userId === f.member.userId);
    await waitFor('two clients of the member', async () => member()?.clients === 2 && member()?.file === 'two.ts');
    expect((await update(tab1.socket, f.workspaceId, 'one-again.ts')).ok).toBe(true);
    await waitFor('the file of the tab used last', async () => member()?.file === 'one-again.ts');
    tab1.socket.disconnect();
    await waitFor('one client left', async () => member()?.clients === 1 && member()?.file === 'two.ts');
    for (const s of [tab2, other]) s.socket.disconnect();
  });

  it('should refuse an outsider with NOT_FOUND and bad requests with 4xx codes, and send them no state', async () => {
    const outsider = await connect(f.outsider.client);
    expect(await join(outsider.socket, f.workspaceId)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await join(outsider.socket, 'not-a-uuid')).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    const member = await connect(f.member.client);
    expect(await update(member.socket, f.workspaceId, 'a.ts')).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('presence.join') } });
    expect(await join(member.socket, f.workspaceId, '../etc/passwd')).toMatchObject({ ok: false, error: { code: 'PATH_OUTSIDE_WORKSPACE' } });
    expect(await join(member.socket, f.workspaceId, 'x'.repeat(5000))).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect((await join(member.socket, f.workspaceId, 'ok.ts')).ok).toBe(true);
    await waitFor('the member sees themself', async () => member.latest()?.members.some((m) => m.userId === f.member.userId));
    expect(outsider.states).toEqual([]);
    for (const s of [outsider, member]) s.socket.disconnect();
  });

  it('should show people on two api processes each other and follow their updates across them', async () => {
    const onA = await connect(f.owner.client, a);
    const onB = await connect(f.admin.client, b);
    expect((await join(onA.socket, f.workspaceId, 'a-side.ts')).ok).toBe(true);
    expect((await join(onB.socket, f.workspaceId, 'b-side.ts')).ok).toBe(true);
    await waitFor('A sees B', async () => onA.latest()?.members.find((m) => m.userId === f.admin.userId)?.file === 'b-side.ts');
    await waitFor('B sees A', async () => onB.latest()?.members.find((m) => m.userId === f.owner.userId)?.file === 'a-side.ts');
    expect((await update(onB.socket, f.workspaceId, 'moved.ts')).ok).toBe(true);
    await waitFor('A follows B\'s update', async () => onA.latest()?.members.find((m) => m.userId === f.admin.userId)?.file === 'moved.ts');
    onB.socket.disconnect();
    await waitFor('B\'s person gone at A', async () => !onA.latest()?.members.some((m) => m.userId === f.admin.userId));
    onA.socket.disconnect();
  });

  it('should drop the people of an api process that stopped heartbeating within the TTL', async () => {
    const watcher = await connect(f.member.client, a);
    // What a crashed api process leaves behind: an entry in Redis that nobody renews any more.
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const now = Date.now();
      const ghost = { userId: f.viewer.userId, name: 'presence-viewer', file: 'ghost.ts', joinedAt: now, activeAt: now, expiresAt: now + TTL_MS };
      await redis.hset(`${prefix}:presence:${f.workspaceId}`, 'socket-of-a-dead-process', JSON.stringify(ghost));
    } finally {
      redis.disconnect();
    }
    expect((await join(watcher.socket, f.workspaceId)).ok).toBe(true);
    await waitFor('the ghost shown while its entry lives', async () => watcher.latest()?.members.some((m) => m.file === 'ghost.ts'));
    await waitFor('the ghost gone after the TTL', async () => watcher.latest() && !watcher.latest()?.members.some((m) => m.file === 'ghost.ts'), 4 * TTL_MS + 5000);
    // The heartbeat keeps the live socket in, long past its first TTL.
    await new Promise((r) => setTimeout(r, 2 * TTL_MS));
    const fresh = await watcher.socket.emitWithAck('presence.update', { workspaceId: f.workspaceId, file: 'still-here.ts' });
    expect(fresh).toMatchObject({ ok: true, data: { members: [{ userId: f.member.userId, file: 'still-here.ts' }] } });
    watcher.socket.disconnect();
  });
});
