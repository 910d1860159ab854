import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pairingViolations, rebuildConversation } from './conversation';
import { RunStop } from './agent-run';
import { createAgentKit, eventTypes, scenario, type AgentKit } from './testing/agent-test-kit';
import { processAlive as pidAlive, waitForCondition as waitFor } from '@h/tools';


describe('runAgent cancellation', () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit()));
  afterEach(() => kit.close());

  it('should stop the model stream mid-answer and keep the text already shown', async () => {
    const controller = new AbortController();
    const long = 'word '.repeat(200);
    const running = kit.run(scenario('slow', [{ text: long, fault: { type: 'slow', chunkDelayMs: 50 } }]), {
      signal: controller.signal,
      onEvent: (e) => {
        kit.events.push(e);
        if (e.type === 'text.delta' && kit.events.filter((x) => x.type === 'text.delta').length === 2) controller.abort();
      },
    });
    const result = await running;
    expect(result.status).toBe('cancelled');
    expect(eventTypes(kit.events)).toEqual(['run.started', 'message.user', 'message.assistant', 'run.cancelled']);
    const partial = kit.events.find((e) => e.type === 'message.assistant')?.data as { content: string; finishReason: string };
    expect(partial.finishReason).toBe('cancelled');
    expect(long.startsWith(partial.content)).toBe(true);
    expect(partial.content.length).toBeLessThan(long.length);
    await waitFor(() => kit.server.requests.every((r) => r.outcome !== 'pending'));
    expect(kit.server.requests[0].outcome).toBe('client_closed');
  });

  it('should end as failed with the host\'s code when it stops the run with a RunStop, before running the answer\'s calls', async () => {
    const controller = new AbortController();
    const result = await kit.run(
      scenario('host-stop', [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'first.txt', content: 'one' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'second.txt', content: 'two' } }] },
      ]),
      {
        signal: controller.signal,
        onEvent: (e) => {
          kit.events.push(e);
          // The host's check after the second model request's usage (e.g. the team's budget).
          if (e.type === 'usage' && kit.events.filter((x) => x.type === 'usage').length === 2) controller.abort(new RunStop('BUDGET_EXCEEDED', 'The budget is spent.'));
        },
      },
    );
    expect(result).toMatchObject({ status: 'failed', error: { code: 'BUDGET_EXCEEDED', message: 'The budget is spent.' } });
    expect(kit.events.at(-1)).toMatchObject({ type: 'run.failed', data: { code: 'BUDGET_EXCEEDED' } });
    expect(existsSync(join(kit.dir, 'first.txt'))).toBe(true);
    expect(existsSync(join(kit.dir, 'second.txt'))).toBe(false);
    expect(pairingViolations(rebuildConversation(kit.events).messages)).toEqual([]);
  });

  it('should kill a running command, skip the rest of the batch and keep every call paired', async () => {
    const controller = new AbortController();
    const pidFile = join(kit.dir, 'sleep.pid');
    const running = kit.run(
      scenario('cancel-command', [
        {
          toolCalls: [
            { name: 'run_command', arguments: { command: 'echo $$ > sleep.pid; exec sleep 30' } },
            { name: 'write_file', arguments: { path: 'after.txt', content: 'should not exist' } },
          ],
        },
      ]),
      { signal: controller.signal },
    );
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(pidAlive(pid)).toBe(true);
    controller.abort();
    const result = await running;

    expect(result.status).toBe('cancelled');
    await waitFor(() => !pidAlive(pid));
    expect(existsSync(join(kit.dir, 'after.txt'))).toBe(false);
    const ends = kit.events.filter((e) => e.type === 'tool.end').map((e) => e.data as { name: string; result: string; isError: boolean });
    expect(ends[0].result).toMatch(/^cancelled/);
    expect(ends[1]).toMatchObject({ name: 'write_file', isError: true, result: expect.stringContaining('Cancelled') });
    expect(kit.events.at(-1)?.type).toBe('run.cancelled');
    expect(pairingViolations(rebuildConversation(kit.events).messages)).toEqual([]);
  }, 15_000);
});
