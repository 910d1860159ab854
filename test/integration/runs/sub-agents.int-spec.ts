import { AGENT_PROFILE_NAMES, AGENT_PROFILES, BROWSER_TOOLS } from '@h/contracts';
import { parseScenario } from '@h/scripted-model';
import { allEvents, waitForEvent, waitForRunStatus } from '../../support/run-fixtures';
import { startWorkerProcess } from '../../support/worker-process';
import { CrashWorld, finishTurn, logProblems, SLOW, startCrashWorld, streamingTurn } from '../crash/crash-kit';
import { waitFor } from '../../support/api-harness';

// Sub-agents are runs of their own in the parent's session (issue 12): delegate_parallel starts
// child runs that really run at once, the parent parks without a worker and resumes when the last
// one ends; their logs survive a killed worker; a read-only profile cannot write; one child's
// failure is reported to the parent and the other completes.

const RESEARCHER = "You are H's Researcher Agent";
const CODE_SEARCH = "You are H's Code Search Agent";

const crashCase = parseScenario({
  name: 'subagents-crash',
  match: { firstUserMessageContains: 'Crash case' },
  turns: [
    {
      expect: { lastMessageRole: 'user', toolsInclude: ['delegate_task', 'delegate_parallel'] },
      toolCalls: [{
        name: 'delegate_parallel',
        arguments: { tasks: [
          { task: 'Crash case A: time how long sleep takes', agent_type: 'researcher' },
          { task: 'Crash case B: time how long sleep takes', agent_type: 'researcher' },
        ] },
      }],
    },
    finishTurn(1, { lastMessageRole: 'tool', lastMessageContains: ['2 sub-agents ended: 2 completed', 'A slept', 'B slept'] }),
  ],
  agents: ['A', 'B'].map((x) => ({
    name: `researcher-${x}`,
    match: { systemContains: RESEARCHER, taskContains: `Crash case ${x}:` },
    turns: [
      { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: `sleep 3; echo ${x}-awake` } }] },
      { expect: { lastMessageRole: 'tool', lastMessageContains: `${x}-awake` }, fault: SLOW, text: `${x} slept for 3 seconds, as the command output shows; there is nothing else to report about it.` },
    ],
  })),
});

const failureCase = parseScenario({
  name: 'subagents-failure',
  match: { firstUserMessageContains: 'Failure case' },
  turns: [
    {
      expect: { lastMessageRole: 'user' },
      toolCalls: [{
        name: 'delegate_parallel',
        arguments: { tasks: [
          { task: 'Failure case search: look, then try to write', agent_type: 'code-search' },
          { task: 'Failure case research: this one breaks', agent_type: 'researcher' },
        ] },
      }],
    },
    finishTurn(2, { lastMessageRole: 'tool', lastMessageContains: ['1 completed, 1 did not', 'write_file is not mine'] }),
  ],
  agents: [
    {
      name: 'search',
      match: { systemContains: CODE_SEARCH, taskContains: 'Failure case search' },
      turns: [
        { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'write_file', arguments: { path: 'evil.txt', content: 'no' } }] },
        { expect: { lastMessageRole: 'tool', lastMessageContains: 'Unknown tool "write_file"' }, text: 'write_file is not mine; nothing written.' },
      ],
    },
    {
      // The provider refuses this sub-agent's request (an unmet expectation answers HTTP 400).
      name: 'breaks',
      match: { systemContains: RESEARCHER, taskContains: 'Failure case research' },
      turns: [{ expect: { systemContains: 'text no prompt has' }, text: 'never sent' }],
    },
  ],
});

const cancelCase = parseScenario({
  name: 'subagents-cancel',
  match: { firstUserMessageContains: 'Cancel case' },
  turns: [{ expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'delegate_task', arguments: { task: 'Cancel case: sleep long', agent_type: 'researcher' } }] }],
  agents: [{
    name: 'sleeper',
    match: { systemContains: RESEARCHER, taskContains: 'Cancel case' },
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 60' } }] }],
  }],
});

const approvalCase = parseScenario({
  name: 'subagents-approval',
  match: { firstUserMessageContains: 'Approval case' },
  turns: [
    { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'delegate_task', arguments: { task: 'Approval case: write the note', agent_type: 'code-writer' } }] },
    finishTurn(3, { lastMessageRole: 'tool', lastMessageContains: '[Code Writer Agent] Completed.' }),
  ],
  agents: [{
    name: 'writer',
    match: { systemContains: "You are H's Code Writer Agent", taskContains: 'Approval case' },
    turns: [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes/approved.txt', content: 'approved\n' } }] },
      { expect: { lastMessageRole: 'tool' }, text: 'Wrote notes/approved.txt.' },
    ],
  }],
});

describe('sub-agents', () => {
  let crash: CrashWorld;

  beforeAll(async () => {
    crash = await startCrashWorld('subagents', [crashCase, failureCase, cancelCase, approvalCase]);
  }, 600_000);

  afterAll(() => crash?.close());

  it('should run two sub-agents at once, each with its own stream, and complete all three runs after a SIGKILL of the worker', async () => {
    const { model, stack, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Crash case: delegate two sleepers.' });
    const parentId: string = posted.body.id;

    // Both children are in their second model turn (after their commands) when the worker dies.
    const tasks = ['Crash case A: time how long sleep takes', 'Crash case B: time how long sleep takes'];
    await waitFor('both sub-agents to stream their report', async () => tasks.every((t) => streamingTurn(model, t, 1)), 90_000);
    expect((await world.client.get(`/api/v1/runs/${parentId}`)).body.status).toBe('waiting_children');
    await crash.worker.kill();
    crash.worker = await startWorkerProcess(stack.config);

    const parent = await waitForRunStatus(world.client, parentId, ['completed', 'failed', 'cancelled'], 120_000);
    expect({ status: parent.status, error: parent.error }).toEqual({ status: 'completed', error: null });
    expect(model.failures).toEqual([]);
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);

    const started = events.find((e) => e.type === 'delegation.started');
    expect(started.runId).toBe(parentId);
    const children: Array<{ runId: string; profile: string }> = started.data.children;
    expect(children.map((c) => c.profile)).toEqual(['researcher', 'researcher']);
    const spans = [];
    for (const child of children) {
      const run = (await world.client.get(`/api/v1/runs/${child.runId}`)).body;
      expect(run).toMatchObject({ status: 'completed', parentRunId: parentId, profile: 'researcher', sessionId });
      const own = events.filter((e) => e.runId === child.runId);
      expect(own.map((e) => e.type)).toEqual(expect.arrayContaining(['message.user', 'run.started', 'tool.start', 'tool.end', 'run.done']));
      const start = own.find((e) => e.type === 'tool.start' && e.data.name === 'run_command');
      const end = own.find((e) => e.type === 'tool.end' && e.data.toolCallId === start.data.toolCallId);
      expect(end.data.isError).toBe(false);
      spans.push({ start: Date.parse(start.ts), end: Date.parse(end.ts) });
    }
    // Really concurrent: each command started before the other ended (stored timestamps).
    expect(spans[0].start).toBeLessThan(spans[1].end);
    expect(spans[1].start).toBeLessThan(spans[0].end);
    // The parent's conversation has none of the children's messages: its resumed request carries
    // the delegate result, not their tasks.
    const parentRequests = model.requests.filter((r) => r.scenario === 'subagents-crash');
    expect(JSON.stringify(parentRequests.at(-1)?.body.messages)).not.toContain('time how long sleep takes"');
    const delegateEnd = events.find((e) => e.type === 'tool.end' && e.data.name === 'delegate_parallel');
    expect(delegateEnd.runId).toBe(parentId);
    expect(delegateEnd.data.data.outcomes.map((o: { status: string }) => o.status)).toEqual(['completed', 'completed']);
  }, 300_000);

  it('should refuse a read-only profile\'s write, report a failing sub-agent to the parent and let the other complete', async () => {
    const { model, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = session.body.id;
    const failuresBefore = model.failures.length;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Failure case: delegate a search and a breaking research.' });
    const parent = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled'], 120_000);
    expect({ status: parent.status, error: parent.error }).toEqual({ status: 'completed', error: null });
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    const children: Array<{ runId: string; profile: string }> = events.find((e) => e.type === 'delegation.started').data.children;
    const [search, research] = await Promise.all(children.map(async (c) => (await world.client.get(`/api/v1/runs/${c.runId}`)).body));
    expect(search).toMatchObject({ status: 'completed', profile: 'code-search' });
    expect(research).toMatchObject({ status: 'failed', profile: 'researcher' });
    // The write was refused by the registry, naming only the tools code-search has.
    const refusal = events.find((e) => e.runId === search.id && e.type === 'tool.end' && e.data.name === 'write_file');
    expect(refusal.data).toMatchObject({ isError: true, result: 'Unknown tool "write_file". Available: read_file, list_files, search_files, grep, read_graph' });
    const delegateEnd = events.find((e) => e.type === 'tool.end' && e.data.name === 'delegate_parallel');
    expect(delegateEnd.data.data.outcomes.map((o: { status: string }) => o.status)).toEqual(['completed', 'failed']);
    expect(delegateEnd.data.result).toContain('[Researcher Agent] Failed');
    // The one scripting failure is the refused request of the breaking sub-agent.
    expect(model.failures.slice(failuresBefore)).toEqual([expect.stringContaining('subagents-failure/breaks')]);

    // Tools as the model saw them: the parent has the delegate tools and no browser tool; the
    // code-search sub-agent exactly its allowlist of the tools H has.
    const seen = (scenario: string) => model.requests.find((r) => r.scenario === scenario)?.body.tools.map((t: any) => t.function.name) as string[];
    const parentTools = seen('subagents-failure');
    expect(parentTools).toEqual(expect.arrayContaining(['delegate_task', 'delegate_parallel', 'write_file']));
    expect(parentTools.filter((t) => t.startsWith('browser_'))).toEqual([]);
    expect(seen('subagents-failure/search')).toEqual(['read_file', 'list_files', 'search_files', 'grep', 'read_graph']);
    // The browser profile is the only one with the browser tools; the seed gives frontend-specialist
    // its three read-only ones for visual checks, and no other profile any.
    const browserTools = (p: (typeof AGENT_PROFILE_NAMES)[number]) => AGENT_PROFILES[p].tools.filter((t) => (BROWSER_TOOLS as readonly string[]).includes(t));
    expect(AGENT_PROFILE_NAMES.filter((p) => browserTools(p).length > 0)).toEqual(['browser', 'frontend-specialist']);
    expect(browserTools('browser')).toEqual([...BROWSER_TOOLS]);
    expect(browserTools('frontend-specialist')).toEqual(['browser_screenshot', 'browser_console', 'browser_request_errors']);
  }, 300_000);

  it('should cancel the sub-agents with their parent', async () => {
    const { world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Cancel case: delegate a long sleep.' });
    const started = await waitForEvent(world.client, sessionId, (e) => e.type === 'tool.start' && e.data.name === 'run_command', 60_000);
    expect((await world.client.get(`/api/v1/runs/${posted.body.id}`)).body.status).toBe('waiting_children');
    expect((await world.client.post(`/api/v1/runs/${posted.body.id}/cancel`, {})).status).toBe(202);
    const child = await waitForRunStatus(world.client, started.runId, ['completed', 'failed', 'cancelled'], 60_000);
    expect(child).toMatchObject({ status: 'cancelled', parentRunId: posted.body.id, profile: 'researcher' });
    expect((await world.client.get(`/api/v1/runs/${posted.body.id}`)).body.status).toBe('cancelled');
    const events = await allEvents(world.client, sessionId);
    expect(events.filter((e) => e.runId === started.runId && e.type === 'run.cancelled')).toHaveLength(1);
    expect(events.filter((e) => e.runId === started.runId && e.type === 'tool.end' && e.data.toolCallId === started.data.toolCallId)).toHaveLength(1);
  }, 120_000);

  it('should ask for a sub-agent\'s write in the session like for any run, and resume the sub-agent and its parent after the decision', async () => {
    const { model, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'approve' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Approval case: delegate a write.' });
    const asked = await waitForEvent(world.client, sessionId, (e) => e.type === 'permission.requested', 60_000);
    expect(asked.data.toolName).toBe('write_file');
    const child = (await world.client.get(`/api/v1/runs/${asked.runId}`)).body;
    expect(child).toMatchObject({ status: 'waiting_permission', parentRunId: posted.body.id, profile: 'code-writer' });
    expect((await world.client.get(`/api/v1/runs/${posted.body.id}`)).body.status).toBe('waiting_children');
    expect((await world.client.post(`/api/v1/permissions/${asked.data.permissionId}`, { behavior: 'allow' })).status).toBe(200);
    const parent = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled'], 60_000);
    expect({ status: parent.status, error: parent.error }).toEqual({ status: 'completed', error: null });
    expect((await world.client.get(`/api/v1/runs/${asked.runId}`)).body.status).toBe('completed');
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    expect(events.find((e) => e.runId === asked.runId && e.type === 'file.changed')?.data.path).toBe('notes/approved.txt');
    expect(model.failures.filter((f) => f.includes('subagents-approval'))).toEqual([]);
  }, 120_000);
});
