import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthorizationRequest, ToolAuthorization } from './agent-run.types';
import { pairingViolations, rebuildConversation } from './conversation';
import { createAgentKit, eventTypes, GOOD_SUMMARY, scenario, type AgentKit } from './testing/agent-test-kit';

describe('runAgent approval hook', () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit()));
  afterEach(() => kit.close());

  it('should deny, pause on ask, and resume the open calls from the event log', async () => {
    kit.write({ 'keep.txt': 'precious' });
    kit.server.load(
      scenario('permissions', [
        {
          toolCalls: [
            { name: 'read_file', arguments: { path: 'keep.txt' } },
            { name: 'delete_file', arguments: { path: 'keep.txt' } },
            { name: 'run_command', arguments: { command: 'echo hi > out.txt' } },
            { name: 'write_file', arguments: { path: 'late.txt', content: 'x' } },
          ],
        },
        {
          expect: { messagesContain: ['Denied by the user: keep it', 'Created late.txt'] },
          toolCalls: [{ name: 'write_summary', arguments: { summary: GOOD_SUMMARY } }, { name: 'task_complete', arguments: {} }],
        },
      ]),
    );
    const headers = { 'x-conversation-id': 'perm' };
    const asked: AuthorizationRequest[] = [];
    const policy = (answers: Record<string, ToolAuthorization>) => (req: AuthorizationRequest): ToolAuthorization => {
      asked.push(req);
      return req.category === 'read' ? { behavior: 'allow' } : (answers[req.call.name] ?? { behavior: 'allow' });
    };

    const first = await kit.run(null, {
      requestHeaders: headers,
      authorize: policy({ delete_file: { behavior: 'deny', message: 'keep it' }, run_command: { behavior: 'ask' } }),
    });
    expect(first).toMatchObject({ status: 'paused', pendingCall: { name: 'run_command' } });
    expect(readFileSync(join(kit.dir, 'keep.txt'), 'utf8')).toBe('precious');
    expect(existsSync(join(kit.dir, 'out.txt'))).toBe(false);
    expect(eventTypes(kit.events).at(-1)).toBe('tool.end');
    expect(asked.map((a) => [a.call.name, a.category])).toEqual([
      ['read_file', 'read'], ['delete_file', 'delete'], ['run_command', 'command'],
    ]);

    // The job ends here; a later job rebuilds from the log and resumes.
    const persisted = kit.events.filter((e) => !e.type.endsWith('.delta'));
    const conversation = rebuildConversation(JSON.parse(JSON.stringify(persisted)), { keepOpenCalls: true });
    expect(conversation.openCalls().map((c) => c.name)).toEqual(['run_command', 'write_file']);
    const second = await kit.run(null, { requestHeaders: headers, conversation, userMessage: undefined, authorize: policy({}) });

    expect(second.status).toBe('done');
    expect(kit.server.failures).toEqual([]);
    expect(readFileSync(join(kit.dir, 'out.txt'), 'utf8')).toBe('hi\n');
    expect(pairingViolations(rebuildConversation(kit.events).messages)).toEqual([]);
  });
});
