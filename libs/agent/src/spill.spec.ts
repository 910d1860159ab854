import { OutputStore } from '@h/tools';
import { rebuildConversation } from './conversation';
import { spillIfOversize, SPILL_THRESHOLD_BYTES } from './spill';
import { createAgentKit, GOOD_SUMMARY, scenario, type AgentKit } from './testing/agent-test-kit';

describe(spillIfOversize.name, () => {
  it('should leave results up to 50,000 bytes alone', () => {
    expect(spillIfOversize('x'.repeat(SPILL_THRESHOLD_BYTES), new OutputStore(), 'l')).toBeNull();
  });

  it('should count UTF-8 bytes and replace an oversize result by a bounded preview and a locator', () => {
    const store = new OutputStore();
    const text = `HEAD${'é'.repeat(30_000)}TAIL`;
    const spilled = spillIfOversize(text, store, 'read_file big');
    if (!spilled) throw new Error('expected a spill');
    expect(spilled.outputId).toBe(1);
    expect(spilled.text.startsWith('HEAD')).toBe(true);
    expect(spilled.text.endsWith('TAIL')).toBe(true);
    expect(spilled.text).toContain('[cmd #1]; read it with read_command_output cmd_id=1');
    expect(spilled.text.length).toBeLessThan(3_400);
    expect(store.get(1)?.text).toBe(text);
  });

  describe('in the loop', () => {
    let kit: AgentKit;
    beforeEach(async () => (kit = await createAgentKit()));
    afterEach(() => kit.close());

    it('should page a long file with read_file instead of spilling it to a head and tail preview', async () => {
      const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1} ${'z'.repeat(20)}`);
      kit.write({ 'big.txt': lines.join('\n') });
      const result = await kit.run(
        scenario('page', [
          { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
          {
            expect: { lastMessageContains: 'call read_file with offset=' },
            toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt', offset: 1999, limit: 1 } }],
          },
          { expect: { lastMessageContains: '1999\tline 1999 z' }, toolCalls: [{ name: 'write_summary', arguments: { summary: GOOD_SUMMARY } }, { name: 'task_complete', arguments: {} }] },
        ]),
      );
      expect(kit.server.failures).toEqual([]);
      expect(result).toMatchObject({ status: 'done' });
      const first = kit.events.find((e) => e.type === 'tool.end')?.data as { result: string; outputId?: number };
      // Whole lines from the top, nothing kept aside: no spill locator, no tail of the file.
      expect(first.outputId).toBeUndefined();
      expect(first.result.startsWith('1\tline 1 z')).toBe(true);
      expect(first.result).not.toContain('line 2000 ');
      expect(rebuildConversation(kit.events).outputs.get(1)).toBeUndefined();
    });
  });
});
