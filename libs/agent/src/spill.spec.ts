import { MemoryOutputStore } from '@h/tools';
import { rebuildConversation } from './conversation';
import { spillIfOversize, SPILL_THRESHOLD_BYTES } from './spill';
import { createAgentKit, GOOD_SUMMARY, scenario, type AgentKit } from './testing/agent-test-kit';

describe(spillIfOversize.name, () => {
  it('should leave results up to 50,000 bytes alone', async () => {
    expect(await spillIfOversize('x'.repeat(SPILL_THRESHOLD_BYTES), new MemoryOutputStore(), 'l')).toBeNull();
  });

  it('should count UTF-8 bytes and replace an oversize result by a bounded preview and a locator', async () => {
    const store = new MemoryOutputStore();
    const text = `HEAD${'é'.repeat(30_000)}TAIL`;
    const spilled = await spillIfOversize(text, store, 'read_file big');
    if (!spilled) throw new Error('expected a spill');
    expect(spilled.output).toEqual({ id: 1, label: 'read_file big', bytes: Buffer.byteLength(text), truncated: false });
    expect(spilled.text.startsWith('HEAD')).toBe(true);
    expect(spilled.text.endsWith('TAIL')).toBe(true);
    expect(spilled.text).toContain('[cmd #1]; read it with read_command_output cmd_id=1');
    expect(spilled.text.length).toBeLessThan(3_400);
    expect((await store.get(1))?.text).toBe(text);
  });

  describe('in the loop', () => {
    let kit: AgentKit;
    beforeEach(async () => (kit = await createAgentKit()));
    afterEach(() => kit.close());

    it('should spill a huge read_file result, let the model page through it, and log only the preview and the locator', async () => {
      const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1} ${'z'.repeat(20)}`);
      kit.write({ 'big.txt': lines.join('\n') });
      const result = await kit.run(
        scenario('spill', [
          { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
          {
            expect: { lastMessageContains: 'read_command_output cmd_id=1' },
            toolCalls: [{ name: 'read_command_output', arguments: { cmd_id: 1, filter: 'line 1999 ' } }],
          },
          { expect: { lastMessageContains: '1999\tline 1999 z' }, toolCalls: [{ name: 'write_summary', arguments: { summary: GOOD_SUMMARY } }, { name: 'task_complete', arguments: {} }] },
        ]),
      );
      expect(kit.server.failures).toEqual([]);
      expect(result).toMatchObject({ status: 'done' });
      const spilled = kit.events.find((e) => e.type === 'tool.end')?.data as Record<string, unknown>;
      expect(Buffer.byteLength(spilled.result as string)).toBeLessThan(4_000);
      expect(spilled).toMatchObject({ outputId: 1, outputTruncated: false });
      // read_file's numbered lines: more than the file itself.
      expect(spilled.outputBytes).toBeGreaterThan(Buffer.byteLength(lines.join('\n')));
      expect(spilled).not.toHaveProperty('fullOutput');
      expect(JSON.stringify(kit.events)).not.toContain('line 1000 ');
      const rebuilt = rebuildConversation(kit.events).messages.find((m) => m.role === 'tool');
      // The model saw the preview (ITR guidance may follow it in the same message).
      expect(rebuilt?.content?.startsWith(spilled.result as string)).toBe(true);
    });
  });
});
