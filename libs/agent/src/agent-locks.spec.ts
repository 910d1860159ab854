// The run's locks (problems, todos, summary) and its step limit come from the run's own events:
// they survive a pause for approval (a new job rebuilding from the log) and end with the run.
import type { ProblemReport } from '@h/tools';
import type { AuthorizationRequest, ToolAuthorization } from './agent-run.types';
import { rebuildConversation } from './conversation';
import { createAgentKit, GOOD_SUMMARY, scenario, type AgentKit } from './testing/agent-test-kit';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });
const askFor = (tool: string) => (req: AuthorizationRequest): ToolAuthorization =>
  req.call.name === tool ? { behavior: 'ask' } : { behavior: 'allow' };
const allow = (): ToolAuthorization => ({ behavior: 'allow' });

describe('run locks across pauses and runs', () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit()));
  afterEach(() => kit.close());

  /** The persisted log as a new job reads it back. */
  const log = () => JSON.parse(JSON.stringify(kit.events.filter((e) => !e.type.endsWith('.delta'))));

  it('should keep the problem lock when the run pauses for an approval and resumes in a new segment', async () => {
    kit.write({ 'a.ts': 'const x: number = "y";\n' });
    // The first check finds two errors, every later one none.
    let checks = 0;
    const diagnostics = async (): Promise<ProblemReport> =>
      ++checks === 1 ? { errorCount: 2, warningCount: 0, source: 'lsp', text: '2 errors' } : { errorCount: 0, warningCount: 0, source: 'lsp', text: '0 errors' };
    kit.server.load(
      scenario('problems-pause', [
        { toolCalls: [call('read_problems'), call('run_command', { command: 'echo fixing' })] },
        { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
        { toolCalls: [call('read_problems'), call('task_complete')] },
      ]),
    );
    const headers = { 'x-conversation-id': 'problems-pause' };
    const first = await kit.run(null, { requestHeaders: headers, diagnostics, authorize: askFor('run_command') });
    expect(first.status).toBe('paused');

    const resumed = await kit.run(null, {
      requestHeaders: headers, diagnostics, authorize: allow,
      conversation: rebuildConversation(log(), { keepOpenCalls: true }), userMessage: undefined,
    });
    // Refused by the lock the first segment found, then accepted once read_problems saw none.
    expect(resumed.status).toBe('done');
    const refused = kit.events.filter((e) => e.type === 'tool.end' && e.data.name === 'task_complete');
    expect(refused.map((e) => e.type === 'tool.end' && e.data.result)).toEqual([
      'Cannot complete: 2 errors still present. Fix them, run read_problems again, then task_complete.',
      'Task complete',
    ]);
    expect(kit.server.failures).toEqual([]);
  });

  it('should not let a todo list of an earlier run block or shape the next run', async () => {
    kit.server.load(
      scenario('old-todos', [
        { toolCalls: [call('write_todos', { todos: [{ content: 'Refactor the parser', status: 'pending' }] })] },
        { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
      ]),
    );
    const headers = { 'x-conversation-id': 'old-todos' };
    const first = await kit.run(null, { requestHeaders: headers, maxSteps: 1 });
    expect(first).toMatchObject({ status: 'failed', error: { code: 'step_limit' } });

    const second = await kit.run(null, { requestHeaders: headers, conversation: rebuildConversation(log()), userMessage: 'Now fix the test.' });
    // No Todo Progress is demanded and no old todo is open: the summary and completion are accepted.
    expect(second.status).toBe('done');
    expect(second.summary).toBe(GOOD_SUMMARY);
    expect(kit.server.failures).toEqual([]);
  });

  it('should count the step limit over the whole run, across a pause', async () => {
    kit.server.load(
      scenario('steps-pause', [
        { toolCalls: [call('run_command', { command: 'echo one' })] },
        { toolCalls: [call('list_files')] },
        { toolCalls: [call('list_files')] },
        { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
      ]),
    );
    const headers = { 'x-conversation-id': 'steps-pause' };
    const first = await kit.run(null, { requestHeaders: headers, maxSteps: 2, authorize: askFor('run_command') });
    expect([first.status, first.steps]).toEqual(['paused', 1]);

    const resumed = await kit.run(null, {
      requestHeaders: headers, maxSteps: 2, authorize: allow,
      conversation: rebuildConversation(log(), { keepOpenCalls: true }), userMessage: undefined,
    });
    expect(resumed).toMatchObject({ status: 'failed', steps: 2, error: { code: 'step_limit' } });
    expect(kit.server.requests).toHaveLength(2);
  });
});
