import { join } from 'node:path';
import { builtinScenarioDir, loadScenarioFile } from '@h/scripted-model';
import { waitFor } from '../../support/api-harness';
import {
  allEvents,
  createRunWorld,
  finishTurn,
  readWorkspaceFile,
  restartApi,
  restartWorker,
  RunWorld,
  sandboxExec,
  scenario,
  seedWorkspace,
  startRun,
  useScriptedRunStack,
  waitForPendingPermission,
  waitForRunStatus,
} from '../../support/run-fixtures';
import { addPerson, errorCode } from '../api/team-fixture';
import { connectSocket, emitAck } from './stream-clients';

const FIX_PROMPT = 'The failing test in test/math.test.js needs fixing.';
const fixScenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));

const denyScenario = scenario(
  'approvals-deny',
  'approvals: try things I will refuse',
  [
    { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran > ran-marker.txt' } }] },
    {
      expect: { lastMessageRole: 'tool', lastMessageContains: ['Denied', 'not on this branch'] },
      toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'original', new_string: 'changed' } }],
    },
    finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'Denied' }),
  ],
  { 'notes.txt': 'original\n' },
);

const editedScenario = scenario('approvals-edited-input', 'approvals: run the command I will edit', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo original-command | tee which.txt' } }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'edited-command' }),
]);

const oneCommandScenario = scenario('approvals-one-command', 'approvals: one command to approve', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo approved-once' } }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'approved-once' }),
]);

const fileOpsScenario = scenario(
  'approvals-file-ops',
  'approvals: shuffle some files',
  [
    {
      expect: { lastMessageRole: 'user' },
      toolCalls: [
        { name: 'list_files', arguments: { path: '.' } },
        { name: 'write_file', arguments: { path: 'a.txt', content: 'alpha' } },
        { name: 'rename_file', arguments: { old_path: 'a.txt', new_path: 'b.txt' } },
        { name: 'create_directory', arguments: { path: 'made/here' } },
        { name: 'delete_file', arguments: { path: 'old.txt' } },
        { name: 'read_file', arguments: { path: 'b.txt' } },
      ],
    },
    finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'alpha' }),
  ],
  { 'old.txt': 'to be deleted\n' },
);

describe('approvals (approve / bypass / skip) over REST and Socket.IO', () => {
  const ctx = useScriptedRunStack([fixScenario, denyScenario, editedScenario, oneCommandScenario, fileOpsScenario]);

  /** Answers every permission request of the run over REST until it ends; returns the tools asked about. */
  async function allowAllOverRest(world: RunWorld, sessionId: string, runId: string): Promise<string[]> {
    const asked: string[] = [];
    for (;;) {
      const run = await waitForRunStatus(world.client, runId, ['waiting_permission', 'completed', 'failed', 'cancelled'], 30000);
      if (run.status !== 'waiting_permission') return asked;
      const request = await waitForPendingPermission(world.client, sessionId, runId);
      asked.push(request.toolName);
      const res = await world.client.post(`/api/v1/permissions/${request.id}`, { behavior: 'allow' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('allowed');
    }
  }

  it('should ask before run_command and edit_file (never before reads) and finish the fix when allowed over REST', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-rest');
    await seedWorkspace(ctx.stack, world, fixScenario.fixture ?? {});
    const { sessionId, runId } = await startRun(world, FIX_PROMPT, { permissionMode: 'approve' });

    const asked = await allowAllOverRest(world, sessionId, runId);
    expect(asked).toEqual(['run_command', 'edit_file', 'run_command']);
    expect((await world.client.get(`/api/v1/runs/${runId}`)).body.status).toBe('completed');
    expect(await readWorkspaceFile(ctx.stack, world, 'src/math.js')).toContain('return a + b;');

    const events = await allEvents(world.client, sessionId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const requested = events.filter((e) => e.type === 'permission.requested');
    expect(requested.map((e) => e.data.toolName)).toEqual(['run_command', 'edit_file', 'run_command']);
    expect(events.filter((e) => e.type === 'permission.resolved').map((e) => e.data.behavior)).toEqual(['allow', 'allow', 'allow']);
    // Every gated tool started only after its decision was recorded.
    for (const req of requested) {
      const resolvedAt = events.find((e) => e.type === 'permission.resolved' && e.data.toolCallId === req.data.toolCallId).seq;
      const startedAt = events.find((e) => e.type === 'tool.start' && e.data.toolCallId === req.data.toolCallId).seq;
      expect(startedAt).toBeGreaterThan(resolvedAt);
    }
    const perms = await world.client.get(`/api/v1/sessions/${sessionId}/permissions`);
    expect(perms.body.items.map((p: any) => [p.toolName, p.status, p.decidedById])).toEqual([
      ['run_command', 'allowed', world.userId],
      ['edit_file', 'allowed', world.userId],
      ['run_command', 'allowed', world.userId],
    ]);
  });

  it('should ask before every write, rename, directory and delete in a batch, and do them once allowed', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-files');
    await seedWorkspace(ctx.stack, world, fileOpsScenario.fixture ?? {});
    const { runId, sessionId } = await startRun(world, 'approvals: shuffle some files', { permissionMode: 'approve' });
    const asked = await allowAllOverRest(world, sessionId, runId);
    expect(asked).toEqual(['write_file', 'rename_file', 'create_directory', 'delete_file']);
    expect((await world.client.get(`/api/v1/runs/${runId}`)).body.status).toBe('completed');
    const listing = await sandboxExec(ctx.stack, world, 'cat b.txt; echo; test -d made/here && echo dir; test -e a.txt || echo no-a; test -e old.txt || echo no-old');
    expect(listing.stdout.split('\n').filter(Boolean)).toEqual(['alpha', 'dir', 'no-a', 'no-old']);
  });

  it('should resume and finish when each request is allowed over Socket.IO as soon as it arrives', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-sock');
    await seedWorkspace(ctx.stack, world, fixScenario.fixture ?? {});
    const socket = await connectSocket(ctx.stack.url, { cookieOf: world.client });
    try {
      const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'approve' });
      const sessionId = created.body.id;
      const acks: Promise<any>[] = [];
      socket.on('event', (e: any) => {
        if (e.type === 'permission.requested') acks.push(emitAck(socket, 'permission.decide', { permissionId: e.data.permissionId, behavior: 'allow' }));
      });
      const sub = await emitAck(socket, 'subscribe', { sessionId, afterSeq: 0 });
      expect(sub.ok).toBe(true);
      const { runId } = await startRun(world, FIX_PROMPT, { sessionId });

      const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 30000);
      expect(run.status).toBe('completed');
      const answers = await Promise.all(acks);
      expect(answers.map((a) => [a.ok, a.data?.toolName, a.data?.status])).toEqual([
        [true, 'run_command', 'allowed'],
        [true, 'edit_file', 'allowed'],
        [true, 'run_command', 'allowed'],
      ]);
      expect(await readWorkspaceFile(ctx.stack, world, 'src/math.js')).toContain('return a + b;');
    } finally {
      socket.disconnect();
    }
  });

  it('should never run a tool denied over REST or Socket.IO, and tell the agent it was denied, with the message', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-deny');
    await seedWorkspace(ctx.stack, world, denyScenario.fixture ?? {});
    const { sessionId, runId } = await startRun(world, 'approvals: try things I will refuse', { permissionMode: 'approve' });

    const command = await waitForPendingPermission(world.client, sessionId, runId);
    expect(command.toolName).toBe('run_command');
    const denied = await world.client.post(`/api/v1/permissions/${command.id}`, { behavior: 'deny', message: 'not on this branch' });
    expect(denied.status).toBe(200);
    expect(denied.body.status).toBe('denied');

    const edit = await waitForPendingPermission(world.client, sessionId, runId);
    expect(edit.toolName).toBe('edit_file');
    // The second refusal comes over Socket.IO.
    const socket = await connectSocket(ctx.stack.url, { cookieOf: world.client });
    try {
      const ack = await emitAck(socket, 'permission.decide', { permissionId: edit.id, behavior: 'deny' });
      expect(ack).toEqual({ ok: true, data: expect.objectContaining({ id: edit.id, status: 'denied' }) });
    } finally {
      socket.disconnect();
    }

    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 30000);
    expect(run.status).toBe('completed');
    expect(await readWorkspaceFile(ctx.stack, world, 'notes.txt')).toBe('original\n');
    expect((await sandboxExec(ctx.stack, world, 'test -e ran-marker.txt')).exitCode).not.toBe(0);

    const events = await allEvents(world.client, sessionId);
    expect(events.filter((e) => e.type === 'tool.start')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ name: 'write_summary' }) }),
      expect.objectContaining({ data: expect.objectContaining({ name: 'task_complete' }) }),
    ]);
    const ends = events.filter((e) => e.type === 'tool.end' && ['run_command', 'edit_file'].includes(e.data.name));
    expect(ends.map((e) => [e.data.name, e.data.isError])).toEqual([
      ['run_command', true],
      ['edit_file', true],
    ]);
    expect(ends[0].data.result).toContain('Denied by the user: not on this branch');
    expect(ends[1].data.result).toContain('Denied by the user');
  });

  it('should run the edited arguments when a decision carries updatedInput', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-edit');
    const { sessionId, runId } = await startRun(world, 'approvals: run the command I will edit', { permissionMode: 'approve' });
    const request = await waitForPendingPermission(world.client, sessionId, runId);
    expect(request.input).toEqual({ command: 'echo original-command | tee which.txt' });

    const res = await world.client.post(`/api/v1/permissions/${request.id}`, {
      behavior: 'allow',
      updatedInput: { command: 'echo edited-command | tee which.txt' },
    });
    expect(res.status).toBe(200);
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 30000)).status).toBe('completed');
    expect(await readWorkspaceFile(ctx.stack, world, 'which.txt')).toBe('edited-command\n');

    const events = await allEvents(world.client, sessionId);
    const start = events.find((e) => e.type === 'tool.start' && e.data.name === 'run_command');
    expect(JSON.parse(start.data.arguments)).toEqual({ command: 'echo edited-command | tee which.txt' });
    const resolved = events.find((e) => e.type === 'permission.resolved');
    expect(resolved.data.updatedInput).toEqual({ command: 'echo edited-command | tee which.txt' });
  });

  it('should answer a second decision with 409 ALREADY_DECIDED and refuse a viewer with 403', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-twice');
    const viewer = await addPerson(ctx.stack.url, { client: world.client, email: '', userId: world.userId }, world.teamId, 'viewer', 'appr-viewer');
    const { sessionId, runId } = await startRun(world, 'approvals: one command to approve', { permissionMode: 'approve' });
    const request = await waitForPendingPermission(world.client, sessionId, runId);

    // A viewer may watch the request but not answer it, over REST or over the socket.
    expect((await viewer.client.get(`/api/v1/sessions/${sessionId}/permissions?status=pending`)).body.items).toHaveLength(1);
    const refused = await viewer.client.post(`/api/v1/permissions/${request.id}`, { behavior: 'allow' });
    expect(refused.status).toBe(403);
    expect(errorCode(refused)).toBe('FORBIDDEN');
    const viewerSocket = await connectSocket(ctx.stack.url, { cookieOf: viewer.client });
    try {
      const ack = await emitAck(viewerSocket, 'permission.decide', { permissionId: request.id, behavior: 'allow' });
      expect(ack).toEqual({ ok: false, error: expect.objectContaining({ code: 'FORBIDDEN' }) });
    } finally {
      viewerSocket.disconnect();
    }
    expect((await world.client.get(`/api/v1/runs/${runId}`)).body.status).toBe('waiting_permission');

    expect((await world.client.post(`/api/v1/permissions/${request.id}`, { behavior: 'allow' })).status).toBe(200);
    const again = await world.client.post(`/api/v1/permissions/${request.id}`, { behavior: 'deny' });
    expect(again.status).toBe(409);
    expect(errorCode(again)).toBe('ALREADY_DECIDED');

    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 30000)).status).toBe('completed');
    const events = await allEvents(world.client, sessionId);
    expect(events.filter((e) => e.type === 'permission.resolved')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool.start' && e.data.name === 'run_command')).toHaveLength(1);
  });

  it.each(['bypass', 'skip'] as const)('should never create a permission request in %s mode', async (mode) => {
    const world = await createRunWorld(ctx.stack, `appr-${mode}`);
    await seedWorkspace(ctx.stack, world, fixScenario.fixture ?? {});
    const { sessionId, runId } = await startRun(world, FIX_PROMPT, { permissionMode: mode });
    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled', 'waiting_permission'], 30000);
    expect(run.status).toBe('completed');
    expect(await readWorkspaceFile(ctx.stack, world, 'src/math.js')).toContain('return a + b;');
    const events = await allEvents(world.client, sessionId);
    expect(events.filter((e) => e.type.startsWith('permission.'))).toEqual([]);
    expect(events.filter((e) => e.type === 'tool.start').map((e) => e.data.name)).toEqual(
      expect.arrayContaining(['run_command', 'edit_file']),
    );
    expect((await world.client.get(`/api/v1/sessions/${sessionId}/permissions`)).body.items).toEqual([]);
  });

  it('should take the decision on a restarted api and stream the rest of the run from it', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-api');
    const { sessionId, runId } = await startRun(world, 'approvals: one command to approve', { permissionMode: 'approve' });
    const request = await waitForPendingPermission(world.client, sessionId, runId);
    const seen = (await allEvents(world.client, sessionId)).at(-1).seq;

    // The client reconnects to the new api process with its last seq and its login.
    const client = await restartApi(ctx.stack, world.client);
    const socket = await connectSocket(ctx.stack.url, { cookieOf: client });
    try {
      const received: number[] = [];
      socket.on('event', (e: { seq: number }) => received.push(e.seq));
      expect((await emitAck(socket, 'subscribe', { sessionId, afterSeq: seen })).ok).toBe(true);
      const ack = await emitAck(socket, 'permission.decide', { permissionId: request.id, behavior: 'allow' });
      expect(ack.ok).toBe(true);
      expect((await waitForRunStatus(client, runId, ['completed', 'failed', 'cancelled'], 30000)).status).toBe('completed');
      const all = (await allEvents(client, sessionId)).map((e) => e.seq);
      await waitFor('the rest of the run over the socket', async () => received.at(-1) === all.at(-1));
      expect(received).toEqual(all.filter((s) => s > seen));
    } finally {
      socket.disconnect();
    }
  });

  it('should resume and complete when the decision comes after the worker was restarted', async () => {
    const world = await createRunWorld(ctx.stack, 'appr-restart');
    await seedWorkspace(ctx.stack, world, fixScenario.fixture ?? {});
    const { sessionId, runId } = await startRun(world, FIX_PROMPT, { permissionMode: 'approve' });
    const first = await waitForPendingPermission(world.client, sessionId, runId);
    expect(first.toolName).toBe('run_command');

    // The wait lives in Postgres: a new worker process (context) answers for the old one.
    await restartWorker(ctx.stack);

    const res = await world.client.post(`/api/v1/permissions/${first.id}`, { behavior: 'allow' });
    expect(res.status).toBe(200);
    const rest = await allowAllOverRest(world, sessionId, runId);
    expect(rest).toEqual(['edit_file', 'run_command']);
    expect((await world.client.get(`/api/v1/runs/${runId}`)).body.status).toBe('completed');
    expect(await readWorkspaceFile(ctx.stack, world, 'src/math.js')).toContain('return a + b;');
    const events = await allEvents(world.client, sessionId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'tool.end' && e.data.name === 'run_command').at(-1).data.result).toContain('all tests passed');
    await waitFor('nothing left to admit', async () => (await world.client.get(`/api/v1/sessions/${sessionId}/state`)).body.activeRunId === null);
  });
});
