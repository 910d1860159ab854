import type { Socket } from 'socket.io-client';
import type { Ack, DiagnosticsChangedEvent, DiagnosticsSnapshot, FileDiagnostics } from '@h/contracts';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { connectSocket } from '../../support/socket-client';
import { teamWithRoles, TeamFixture } from '../api/team-fixture';
import { filesApi } from '../files/files-fixture';

// Issue 13, point 1 (backend): diagnostics from the workspace's language servers reach every
// subscribed member's socket as `diagnostics.changed`; members sync buffers, viewers only follow
// and ask; outsiders get NOT_FOUND.
describe('language intelligence over Socket.IO', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const sockets: Socket[] = [];
  const TS_ERROR = "export const n: number = 'not a number';\n";

  beforeAll(async () => {
    stack = await startStack({ env: { SSE_HEARTBEAT_MS: '1000' } });
    f = await teamWithRoles(stack.url, 'lsp');
    const api = filesApi(f.workspaceId);
    expect((await f.owner.client.post(api.entry('tsconfig.json'), { type: 'file', content: JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }) })).status).toBe(201);
    expect((await f.owner.client.post(api.entry('src/ok.ts'), { type: 'file', content: 'export const ok = 1;\n' })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack?.close();
  });

  async function follower(client: HttpClient): Promise<{ socket: Socket; events: DiagnosticsChangedEvent[]; latest: (path: string) => FileDiagnostics | undefined }> {
    const socket = await connectSocket(stack.url, client);
    sockets.push(socket);
    const events: DiagnosticsChangedEvent[] = [];
    socket.on('diagnostics.changed', (e: DiagnosticsChangedEvent) => events.push(e));
    const latest = (path: string) => events.flatMap((e) => e.files).filter((x) => x.path === path).at(-1);
    return { socket, events, latest };
  }

  it('pushes a member\'s buffer diagnostics to every subscribed teammate, viewer included, and the fix clears them', async () => {
    const viewer = await follower(f.viewer.client);
    const owner = await follower(f.owner.client);
    const member = await follower(f.member.client);
    const snap: Ack<DiagnosticsSnapshot> = await viewer.socket.emitWithAck('diagnostics.subscribe', { workspaceId: f.workspaceId });
    expect(snap).toMatchObject({ ok: true, data: { workspaceId: f.workspaceId, files: expect.any(Array), servers: expect.any(Array) } });
    expect((await owner.socket.emitWithAck('diagnostics.subscribe', { workspaceId: f.workspaceId })).ok).toBe(true);

    expect(await member.socket.emitWithAck('lsp.sync', { workspaceId: f.workspaceId, path: 'src/ok.ts', text: TS_ERROR })).toEqual({ ok: true, data: { language: 'typescript' } });
    for (const who of [viewer, owner]) {
      const seen = await waitFor('the type error on a teammate\'s socket', async () => who.latest('src/ok.ts')?.diagnostics.length ? who.latest('src/ok.ts') : undefined, 60_000);
      expect(seen).toMatchObject({ language: 'typescript', diagnostics: [expect.objectContaining({ severity: 'error', startLine: 1, message: expect.stringContaining("not assignable to type 'number'") })] });
    }
    // A late subscriber gets it in the snapshot.
    const late = await follower(f.admin.client);
    const again: Ack<DiagnosticsSnapshot> = await late.socket.emitWithAck('diagnostics.subscribe', { workspaceId: f.workspaceId });
    expect(again.ok && again.data.files.find((x) => x.path === 'src/ok.ts')?.diagnostics).toHaveLength(1);

    // Closing the editor goes back to the file on disk, which is fine: cleared for everyone.
    expect(await member.socket.emitWithAck('lsp.close', { workspaceId: f.workspaceId, path: 'src/ok.ts' })).toEqual({ ok: true, data: null });
    await waitFor('cleared on the viewer\'s socket', async () => viewer.latest('src/ok.ts')?.diagnostics.length === 0, 60_000);
  }, 120_000);

  it('answers hover and completion to a viewer, but refuses a viewer\'s buffer', async () => {
    const viewer = await follower(f.viewer.client);
    const hover = await viewer.socket.emitWithAck('lsp.hover', { workspaceId: f.workspaceId, path: 'src/ok.ts', line: 1, column: 14 });
    expect(hover).toMatchObject({ ok: true, data: { contents: expect.stringContaining('ok') } });
    const completion = await viewer.socket.emitWithAck('lsp.completion', { workspaceId: f.workspaceId, path: 'src/ok.ts', line: 1, column: 1 });
    expect(completion).toMatchObject({ ok: true, data: { items: expect.any(Array), incomplete: expect.any(Boolean) } });
    const refused = await viewer.socket.emitWithAck('lsp.sync', { workspaceId: f.workspaceId, path: 'src/ok.ts', text: TS_ERROR });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect((await viewer.socket.emitWithAck('lsp.close', { workspaceId: f.workspaceId, path: 'src/ok.ts' })).ok).toBe(false);
  }, 60_000);

  it('refuses outsiders with NOT_FOUND and bad input with VALIDATION_FAILED / PATH_OUTSIDE_WORKSPACE', async () => {
    const outsider = await follower(f.outsider.client);
    for (const [event, body] of [
      ['diagnostics.subscribe', { workspaceId: f.workspaceId }],
      ['lsp.hover', { workspaceId: f.workspaceId, path: 'src/ok.ts', line: 1, column: 1 }],
      ['lsp.sync', { workspaceId: f.workspaceId, path: 'src/ok.ts', text: 'x' }],
    ] as const) {
      expect(await outsider.socket.emitWithAck(event, body)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    }
    expect(outsider.events).toEqual([]);
    const member = await follower(f.member.client);
    expect(await member.socket.emitWithAck('lsp.hover', { workspaceId: f.workspaceId, path: 'src/ok.ts', line: 0, column: 1 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await member.socket.emitWithAck('lsp.sync', { workspaceId: 'nope', path: 'a.ts', text: '' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await member.socket.emitWithAck('lsp.sync', { workspaceId: f.workspaceId, path: '../x.ts', text: '' })).toMatchObject({ ok: false, error: { code: 'PATH_OUTSIDE_WORKSPACE' } });
  }, 60_000);
});
