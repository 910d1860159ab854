import { CORE_TOOLS, MemoryOutputStore, ToolRegistry, type AgentTool } from '@h/tools';
import { z } from 'zod';
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
      expect(first).not.toHaveProperty('fullOutput');
    });

    it('should spill a huge result of any other tool, and log only the preview and the locator', async () => {
      const lines = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${'z'.repeat(20)}`);
      const dump: AgentTool = {
        name: 'dump_rows', description: 'Test tool: prints many rows.', category: 'read',
        parameters: { type: 'object', properties: {} }, input: z.object({}), execute: async () => ({ text: lines.join('\n') }),
      };
      const result = await kit.run(
        scenario('spill', [
          { toolCalls: [{ name: 'dump_rows', arguments: {} }] },
          {
            expect: { lastMessageContains: 'read_command_output cmd_id=1' },
            toolCalls: [{ name: 'read_command_output', arguments: { cmd_id: 1, filter: 'row 2999 ' } }],
          },
          { expect: { lastMessageContains: '2999\trow 2999 z' }, toolCalls: [{ name: 'write_summary', arguments: { summary: GOOD_SUMMARY } }, { name: 'task_complete', arguments: {} }] },
        ]),
        { tools: new ToolRegistry([...CORE_TOOLS, dump]) },
      );
      expect(kit.server.failures).toEqual([]);
      expect(result).toMatchObject({ status: 'done' });
      const spilled = kit.events.find((e) => e.type === 'tool.end')?.data as Record<string, unknown>;
      expect(Buffer.byteLength(spilled.result as string)).toBeLessThan(4_000);
      expect(spilled).toMatchObject({ outputId: 1, outputTruncated: false });
      expect(spilled).not.toHaveProperty('fullOutput');
      expect(JSON.stringify(kit.events)).not.toContain('row 1500 ');
      const rebuilt = rebuildConversation(kit.events).messages.find((m) => m.role === 'tool');
      // The model saw the preview (ITR guidance may follow it in the same message).
      expect(rebuilt?.content?.startsWith(spilled.result as string)).toBe(true);
    });
  });
});
