import Docker from 'dockerode';
import { waitFor } from '../../support/api-harness';
import { addPerson, errorCode, type Person } from '../api/team-fixture';
import {
  allEvents,
  createRunWorld,
  finishTurn,
  readWorkspaceFile,
  RunWorld,
  sandboxExec,
  scenario,
  seedWorkspace,
  startRun,
  useScriptedRunStack,
  waitForPendingPermission,
  waitForRunStatus,
} from '../../support/run-fixtures';

// Issue 10 point 7: the agent's edits are reviewable. Writes/edits/renames/deletes are recorded
// with both sides and shown by `file.changed`; reject restores the file and tells the agent after
// the cached prefix; a run can be reverted as a whole; the permission card gets the diff or the
// command and may run an edited input; a fork brings back the log and the files as they were.

const reviewScenario = scenario(
  'changes-review',
  'changes: write and edit two files',
  [
    {
      expect: { lastMessageRole: 'user' },
      toolCalls: [
        { name: 'write_file', arguments: { path: 'new.txt', content: 'created by the agent\n' } },
        { name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'original', new_string: 'changed by the agent' } },
      ],
    },
    finishTurn({ lastMessageRole: 'tool' }),
    // The second message's run: the note about the reject rides on the new user message.
    finishTurn({ lastMessageRole: 'user', lastMessageContains: ['go on', 'rejected your change to notes.txt'] }),
  ],
);

// A reject while the run is still working: the agent hears of it at its very next request.
const midRunScenario = scenario('changes-midrun', 'changes: reject while the run works', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'write_file', arguments: { path: 'mid.txt', content: 'agent v1\n' } }] },
  // A long command: the reject lands while it runs.
  { expect: { lastMessageRole: 'tool' }, toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 4; echo slept' } }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: ['slept', 'rejected your change to mid.txt'] }),
  // The next message's run is not told again.
  finishTurn({ lastMessageRole: 'user', lastMessageContains: 'and now' }),
]);

const revertScenario = scenario('changes-revert', 'changes: shuffle files for a revert', [
  {
    expect: { lastMessageRole: 'user' },
    toolCalls: [
      { name: 'write_file', arguments: { path: 'a.txt', content: 'alpha\n' } },
      { name: 'edit_file', arguments: { path: 'b.txt', old_string: 'bee', new_string: 'BEE' } },
      { name: 'rename_file', arguments: { old_path: 'c.txt', new_path: 'd.txt' } },
      { name: 'delete_file', arguments: { path: 'e.txt' } },
    ],
  },
  finishTurn({ lastMessageRole: 'tool' }),
]);

const approveScenario = scenario('changes-approve', 'changes: edit and run with approval', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'original', new_string: 'from the model' } }] },
  { expect: { lastMessageRole: 'tool' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo from-the-model' } }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'edited-command' }),
]);

const forkScenario = scenario('changes-fork', 'changes: first version for a fork', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'write_file', arguments: { path: 'story.txt', content: 'version one\n' } }] },
  finishTurn({ lastMessageRole: 'tool' }),
  { expect: { lastMessageRole: 'user', lastMessageContains: 'second version' }, toolCalls: [{ name: 'write_file', arguments: { path: 'story.txt', content: 'version two\n' } }] },
  finishTurn({ lastMessageRole: 'tool' }),
]);

describe('agent changes: record, review, revert, approve with edits, fork', () => {
  const ctx = useScriptedRunStack([reviewScenario, midRunScenario, revertScenario, approveScenario, forkScenario]);

  const owner = (world: RunWorld): Person => ({ client: world.client, email: '', userId: world.userId });

  it('should record each change with both sides, restore a rejected one and tell the agent on its next request', async () => {
    const world = await createRunWorld(ctx.stack, 'chg-review');
    await seedWorkspace(ctx.stack, world, { 'notes.txt': 'original\n' });
    const { sessionId, runId } = await startRun(world, 'changes: write and edit two files', { permissionMode: 'bypass' });
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed'])).status).toBe('completed');

    const changed = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'file.changed');
    expect(changed.map((e) => [e.data.kind, e.data.path, e.data.added, e.data.removed])).toEqual([
      ['create', 'new.txt', 1, 0],
      ['modify', 'notes.txt', 1, 1],
    ]);
    const list = await world.client.get(`/api/v1/sessions/${sessionId}/changes`);
    expect(list.status).toBe(200);
    const edit = list.body.items.find((c: any) => c.path === 'notes.txt');
    expect(edit).toMatchObject({ runId, status: 'applied', before: { content: 'original\n' }, after: { content: 'changed by the agent\n' } });
    expect(edit.toolCallId).toBe(changed[1].data.toolCallId);

    // A viewer sees the change but may not decide; another team does not see it at all.
    const viewer = await addPerson(ctx.stack.url, owner(world), world.teamId, 'viewer', 'chg-viewer');
    expect((await viewer.client.get(`/api/v1/changes/${edit.id}`)).status).toBe(200);
    const refused = await viewer.client.post(`/api/v1/changes/${edit.id}/reject`, {});
    expect([refused.status, errorCode(refused)]).toEqual([403, 'FORBIDDEN']);
    const stranger = await createRunWorld(ctx.stack, 'chg-stranger');
    for (const res of [await stranger.client.get(`/api/v1/changes/${edit.id}`), await stranger.client.post(`/api/v1/changes/${edit.id}/reject`, {}), await stranger.client.post(`/api/v1/runs/${runId}/revert`, {})]) {
      expect(res.status).toBe(404);
    }
    expect(await readWorkspaceFile(ctx.stack, world, 'notes.txt')).toBe('changed by the agent\n');

    const rejected = await world.client.post(`/api/v1/changes/${edit.id}/reject`, {});
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', decidedById: world.userId });
    expect(await readWorkspaceFile(ctx.stack, world, 'notes.txt')).toBe('original\n');
    const again = await world.client.post(`/api/v1/changes/${edit.id}/reject`, {});
    expect([again.status, errorCode(again)]).toEqual([409, 'CHANGE_ALREADY_DECIDED']);
    const created = list.body.items.find((c: any) => c.path === 'new.txt');
    expect((await world.client.post(`/api/v1/changes/${created.id}/accept`, {})).body.status).toBe('accepted');
    expect(await readWorkspaceFile(ctx.stack, world, 'new.txt')).toBe('created by the agent\n');
    const resolved = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'file.change.resolved');
    expect(resolved.map((e) => [e.data.status, e.data.changeIds])).toEqual([
      ['rejected', [edit.id]],
      ['accepted', [created.id]],
    ]);

    const before = ctx.model.requests.length;
    const next = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'go on' });
    expect((await waitForRunStatus(world.client, next.body.id, ['completed', 'failed'])).status).toBe('completed');
    const [previous, first] = [ctx.model.requests[before - 1].body, ctx.model.requests[before].body];
    const last = first.messages.at(-1);
    expect(last.role).toBe('user');
    expect(last.content).toContain('The user rejected your change to notes.txt (it was restored to its content before your change)');
    // The note came after the cached prefix: every message the model was sent before is unchanged.
    expect(first.messages.slice(0, previous.messages.length)).toEqual(previous.messages);
  });

  it('should tell the agent of a reject made while its run still works at its next model request, and only once', async () => {
    const world = await createRunWorld(ctx.stack, 'chg-midrun');
    await seedWorkspace(ctx.stack, world, {});
    const { sessionId, runId } = await startRun(world, 'changes: reject while the run works', { permissionMode: 'bypass' });
    const change = await waitFor('the agent\'s write, recorded', async () => {
      const running = (await allEvents(world.client, sessionId)).some((e) => e.type === 'tool.start' && e.data.name === 'run_command');
      const items = (await world.client.get(`/api/v1/sessions/${sessionId}/changes`)).body.items ?? [];
      return running ? items.find((c: any) => c.path === 'mid.txt') : null;
    });
    const before = ctx.model.requests.length;
    expect((await world.client.post(`/api/v1/changes/${change.id}/reject`, {})).status).toBe(200);
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed'])).status).toBe('completed');
    // The request after the command carries the note, after everything the model was sent before.
    const [previous, told] = [ctx.model.requests[before - 1].body, ctx.model.requests[before].body];
    expect(told.messages.at(-1).content).toContain('The user rejected your change to mid.txt');
    expect(told.messages.slice(0, previous.messages.length)).toEqual(previous.messages);

    const next = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'and now' });
    expect((await waitForRunStatus(world.client, next.body.id, ['completed', 'failed'])).status).toBe('completed');
    const again = ctx.model.requests.at(-1)?.body;
    expect(again.messages.filter((m: any) => String(m.content ?? '').includes('rejected your change to mid.txt'))).toHaveLength(1);
  });

  it('should revert a whole run newest first, and refuse with both versions while a file changed since', async () => {
    const world = await createRunWorld(ctx.stack, 'chg-revert');
    await seedWorkspace(ctx.stack, world, { 'b.txt': 'bee\n', 'c.txt': 'sea\n', 'e.txt': 'eel\n' });
    const { sessionId, runId } = await startRun(world, 'changes: shuffle files for a revert', { permissionMode: 'bypass' });
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed'])).status).toBe('completed');
    expect((await world.client.get(`/api/v1/sessions/${sessionId}/changes`)).body.items.map((c: any) => c.kind)).toEqual(['create', 'modify', 'rename', 'delete']);

    await sandboxExec(ctx.stack, world, 'printf "teammate\\n" > b.txt');
    const conflict = await world.client.post(`/api/v1/runs/${runId}/revert`, {});
    expect([conflict.status, errorCode(conflict)]).toEqual([409, 'CHANGE_CONFLICT']);
    expect(conflict.body.error).toMatchObject({ path: 'b.txt', current: { content: 'teammate\n' }, recorded: { content: 'BEE\n' } });
    // All or nothing: the created file is still there.
    expect(await readWorkspaceFile(ctx.stack, world, 'a.txt')).toBe('alpha\n');

    await sandboxExec(ctx.stack, world, 'printf "BEE\\n" > b.txt');
    const reverted = await world.client.post(`/api/v1/runs/${runId}/revert`, {});
    expect(reverted.status).toBe(200);
    expect(reverted.body.items.map((c: any) => [c.kind, c.status])).toEqual([
      ['delete', 'reverted'],
      ['rename', 'reverted'],
      ['modify', 'reverted'],
      ['create', 'reverted'],
    ]);
    const ls = await sandboxExec(ctx.stack, world, 'ls; cat b.txt c.txt e.txt');
    expect(ls.stdout).toBe('b.txt\nc.txt\ne.txt\nbee\nsea\neel\n');
    const resolved = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'file.change.resolved');
    expect(resolved).toHaveLength(1);
    expect(resolved[0].data).toMatchObject({ status: 'reverted' });
    expect(resolved[0].data.changeIds).toHaveLength(4);
    expect((await world.client.post(`/api/v1/runs/${runId}/revert`, {})).body.items).toEqual([]);
  });

  it('should show the diff and the command when asking, refuse an edited input that does not fit, and run the edited one', async () => {
    const world = await createRunWorld(ctx.stack, 'chg-approve');
    await seedWorkspace(ctx.stack, world, { 'notes.txt': 'original\n' });
    const { sessionId, runId } = await startRun(world, 'changes: edit and run with approval', { permissionMode: 'approve' });

    const editRequest = await waitForPendingPermission(world.client, sessionId, runId);
    const asked = (await allEvents(world.client, sessionId)).find((e) => e.type === 'permission.requested' && e.data.permissionId === editRequest.id);
    expect(asked.data.preview).toMatchObject({ kind: 'diff', path: 'notes.txt', added: 1, removed: 1 });
    expect(asked.data.preview.diff).toContain('-original\n+from the model\n');
    const bad = await world.client.post(`/api/v1/permissions/${editRequest.id}`, { behavior: 'allow', updatedInput: { path: 'notes.txt', old_string: 7 } });
    expect([bad.status, errorCode(bad)]).toEqual([422, 'INVALID_TOOL_INPUT']);
    const edited = { path: 'notes.txt', old_string: 'original', new_string: 'edited by a person' };
    expect((await world.client.post(`/api/v1/permissions/${editRequest.id}`, { behavior: 'allow', updatedInput: edited })).status).toBe(200);

    const commandRequest = await waitForPendingPermission(world.client, sessionId, runId);
    const askedCommand = (await allEvents(world.client, sessionId)).find((e) => e.type === 'permission.requested' && e.data.permissionId === commandRequest.id);
    expect(askedCommand.data.preview).toEqual({ kind: 'command', command: 'echo from-the-model' });
    expect((await world.client.post(`/api/v1/permissions/${commandRequest.id}`, { behavior: 'allow', updatedInput: { command: 'echo edited-command' } })).status).toBe(200);
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed'])).status).toBe('completed');

    expect(await readWorkspaceFile(ctx.stack, world, 'notes.txt')).toBe('edited by a person\n');
    const starts = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'tool.start' && ['edit_file', 'run_command'].includes(e.data.name));
    expect(starts.map((e) => [e.data.name, e.data.editedByUser, JSON.parse(e.data.arguments)])).toEqual([
      ['edit_file', true, edited],
      ['run_command', true, { command: 'echo edited-command' }],
    ]);
    // The recorded change is what ran, not what the model proposed.
    const change = (await world.client.get(`/api/v1/sessions/${sessionId}/changes`)).body.items[0];
    expect(change.after.content).toBe('edited by a person\n');
  });

  it('should fork from a later message with the log before it and the files as they were before its run', async () => {
    const world = await createRunWorld(ctx.stack, 'chg-fork');
    const { sessionId, runId } = await startRun(world, 'changes: first version for a fork', { permissionMode: 'bypass' });
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed'])).status).toBe('completed');
    const second = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'now the second version' });
    expect((await waitForRunStatus(world.client, second.body.id, ['completed', 'failed'])).status).toBe('completed');
    expect(await readWorkspaceFile(ctx.stack, world, 'story.txt')).toBe('version two\n');
    // The sandbox restarts between the runs and the fork (idle stop, host restart): its tmpfs is
    // wiped, but the checkpoints live in the workspace's state volume.
    await new Docker().getContainer(`${ctx.stack.sandboxPrefix}ws-${world.workspaceId}`).restart({ t: 1 });

    const log = await allEvents(world.client, sessionId);
    const message = log.find((e) => e.type === 'message.user' && e.data.content === 'now the second version');
    const viewer = await addPerson(ctx.stack.url, owner(world), world.teamId, 'viewer', 'fork-viewer');
    expect((await viewer.client.post(`/api/v1/sessions/${sessionId}/fork`, { atSeq: message.seq })).status).toBe(403);
    const notMessage = await world.client.post(`/api/v1/sessions/${sessionId}/fork`, { atSeq: message.seq + 1 });
    expect([notMessage.status, errorCode(notMessage)]).toEqual([400, 'VALIDATION_FAILED']);

    const forked = await world.client.post(`/api/v1/sessions/${sessionId}/fork`, { atSeq: message.seq });
    expect(forked.status).toBe(201);
    expect(forked.body.draft).toBe('now the second version');
    expect(forked.body.restoredCheckpoint).toMatch(/^[0-9a-f]{40}$/);
    expect(await readWorkspaceFile(ctx.stack, world, 'story.txt')).toBe('version one\n');

    const copy = await allEvents(world.client, forked.body.session.id);
    const firstRun = log.filter((e) => e.runId === runId && e.type !== 'file.changed');
    expect(copy.map((e) => e.seq)).toEqual(copy.map((_, i) => i + 1));
    expect(copy.map((e) => [e.type, e.data])).toEqual(firstRun.map((e) => [e.type, e.data]));
    expect(copy.every((e) => e.runId === null)).toBe(true);
    expect(forked.body.session).toMatchObject({ workspaceId: world.workspaceId, permissionMode: 'bypass' });
  });
});
