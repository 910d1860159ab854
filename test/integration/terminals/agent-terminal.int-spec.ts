import { createRunWorld, finishTurn, scenario, startRun, useScriptedRunStack, waitForEvent, waitForPendingPermission, waitForRunStatus, allEvents, sandboxExec } from '../../support/run-fixtures';
import { waitFor } from '../../support/api-harness';
import type { TermSocket } from './terminal-socket';
import { termWatcher } from './terminal-socket';

// Issue 10, point 6: the agent starts a server with run_in_terminal (asked in approve mode), in a
// terminal tab the team sees; the result names the URL a HEAD check inside the sandbox found to
// serve a page, a preview.detected event is logged; kill_terminal stops it.
const SERVER = 'python3 -m http.server 8000';
const URL = 'http://0.0.0.0:8000/';

const serve = scenario('agent-terminal-serve', 'agent terminal: serve the folder', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_in_terminal', arguments: { command: SERVER } }] },
  { expect: { lastMessageContains: ['server started', `Preview: ${URL}`, 'terminal index=0'] }, toolCalls: [{ name: 'kill_terminal', arguments: {} }] },
  finishTurn({ lastMessageContains: `Killed terminal 0: \`${SERVER}\`` }),
]);

describe('the agent\'s terminal tools in a real sandbox', () => {
  const ctx = useScriptedRunStack([serve]);
  const sockets: TermSocket[] = [];
  afterAll(() => sockets.forEach((s) => s.disconnect()));

  it('should run a server in a shared terminal after approval, report its preview URL, and kill it', async () => {
    const world = await createRunWorld(ctx.stack, 'agent-term');
    const watcher = await termWatcher(ctx.stack.url, world.client, sockets);
    expect(await watcher.socket.emitWithAck('terminal.list', { workspaceId: world.workspaceId })).toMatchObject({ ok: true, data: { terminals: [] } });

    const { sessionId, runId } = await startRun(world, 'agent terminal: serve the folder');
    const ask = await waitForPendingPermission(world.client, sessionId, runId);
    expect(ask).toMatchObject({ toolName: 'run_in_terminal', input: { command: SERVER } });
    expect((await world.client.post(`/api/v1/permissions/${ask.id}`, { behavior: 'allow' })).status).toBe(200);

    // The team sees the agent's terminal appear, marked as the agent's and this session's.
    const opened = await waitFor('the agent terminal in the IDE list', async () => watcher.changes.find((c) => c.change === 'opened'), 60000);
    const terminal = opened.terminals.find((t) => t.id === opened.terminalId);
    expect(terminal).toMatchObject({ agent: true, sessionId, command: SERVER, openedBy: world.userId });

    const preview = await waitForEvent(world.client, sessionId, (e) => e.type === 'preview.detected', 60000);
    expect(preview.data).toMatchObject({ url: URL, terminalId: opened.terminalId });
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'])).status).toBe('completed');

    const ends = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'tool.end');
    expect(ends.find((e) => e.data.name === 'run_in_terminal').data).toMatchObject({ isError: false, data: { state: 'server', previews: [URL] } });
    expect(ends.find((e) => e.data.name === 'kill_terminal').data.result).toBe(`Killed terminal 0: \`${SERVER}\``);
    await waitFor('the terminal closed for the team', async () => watcher.changes.find((c) => c.change === 'closed' && c.terminalId === opened.terminalId));
    // The server is gone from the sandbox.
    const probe = await sandboxExec(ctx.stack, world, "curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8000/ || true");
    expect(probe.stdout.trim()).toBe('000');
  });
});
