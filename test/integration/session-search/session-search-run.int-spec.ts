// A real run (worker, sandbox, scripted model over HTTP) that looks up an earlier session's finding
// with session_search: the main agent is offered the five session-query tools and the fixed
// prior-history guidance, and the tool reads the workspace's log through the worker's port.
import { randomUUID } from 'node:crypto';
import { AgentSessionRepository, EventRepository } from '@h/db';
import { PRIOR_HISTORY_GUIDANCE } from '@h/agent';
import { allEvents, createRunWorld, finishTurn, scenario, startRun, useScriptedRunStack, waitForRunStatus } from '../../support/run-fixtures';

const WORD = `zr${randomUUID().slice(0, 8)}`;
const SESSION_TOOLS = ['session_search', 'session_event_search', 'session_trace', 'session_event_trace', 'session_event_read'];

const lookup = scenario('session-search-lookup', 'what did we learn before', [
  {
    expect: { lastMessageRole: 'user', toolsInclude: SESSION_TOOLS, systemContains: PRIOR_HISTORY_GUIDANCE },
    toolCalls: [{ name: 'session_search', arguments: { query: WORD } }],
  },
  finishTurn({ lastMessageContains: ['"Invoice rounding notes"', 'rounds half up in src/invoice.ts'] }),
]);

describe('session search in a run', () => {
  const ctx = useScriptedRunStack([lookup]);

  it("should let the agent find an earlier session's finding in its workspace with session_search", async () => {
    const world = await createRunWorld(ctx.stack, 'search-run');
    const sessions = ctx.stack.api.get(AgentSessionRepository);
    const earlier = await sessions.create({
      teamId: world.teamId, workspaceId: world.workspaceId, createdById: world.userId, title: 'Invoice rounding notes',
      model: 'deepseek-v4-flash', thinking: false, permissionMode: 'approve',
    });
    await ctx.stack.api.get(EventRepository).append(earlier.id, [
      { type: 'message.user', data: { content: 'Why is the invoice total off?' } },
      { type: 'summary.written', data: { summary: `Finding ${WORD}: the total rounds half up in src/invoice.ts` } },
    ]);
    const { sessionId, runId } = await startRun(world, `what did we learn before about ${WORD}?`, { permissionMode: 'approve' });
    expect((await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
    const end = (await allEvents(world.client, sessionId)).find((e) => e.type === 'tool.end' && e.data.name === 'session_search');
    expect(end.data.isError).toBe(false);
    expect(end.data.result).toContain(`session ${earlier.id} "Invoice rounding notes"`);
    // The calling session (whose first message holds the word too) is left out.
    expect(end.data.result).not.toContain(sessionId);
  });
});
