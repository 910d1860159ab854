import type { AgentEvent } from '@h/contracts';
import { commonPrefixLength, renderPrompt } from '@h/scripted-model';
import type { MemoryPort, RecalledMemory } from '@h/tools';
import { rebuildConversation } from './conversation';
import { parentToolRegistry } from './profiles';
import { createAgentKit, GOOD_SUMMARY, scenario, type AgentKit } from './testing/agent-test-kit';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

/** A store in a map, keyed as libs/memory keys it (lower-case): enough for the engine's side. */
function mapStore(): MemoryPort & { entries: Map<string, RecalledMemory> } {
  const entries = new Map<string, RecalledMemory>();
  return {
    entries,
    async remember({ key, value, category, tags, scope }) {
      const k = key.toLowerCase();
      const previous = entries.get(k)?.content;
      entries.set(k, { key, content: value, scope: scope ?? 'project', category: category ?? 'general', tags: tags ?? [] });
      return { key, scope: scope ?? 'project', outcome: previous === undefined ? 'created' : 'updated', ...(previous !== undefined ? { previous } : {}) };
    },
    async recall() {
      return [...entries.values()];
    },
    async forget(key) {
      return entries.delete(key.toLowerCase()) ? 1 : 0;
    },
  };
}

const guidance = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'prompt.guidance' }> => e.type === 'prompt.guidance');

describe('runAgent with memory', () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit({ maxRetries: 1 })));
  afterEach(() => kit.close());

  it('should remember in one run and, told the memory in the next, keep the cached prefix (system prompt and tools unchanged)', async () => {
    const store = mapStore();
    const tools = parentToolRegistry();
    kit.server.load(
      scenario('memory-two-runs', [
        { toolCalls: [call('remember', { key: 'Indent Style', value: 'Two spaces, no tabs', category: 'convention' })] },
        { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
        { text: 'Two spaces, as you said.' },
      ]),
    );
    const headers = { 'x-conversation-id': 'memory-session' };
    const first = await kit.run(null, { tools, memoryStore: store, requestHeaders: headers, userMessage: 'We indent with two spaces here, remember that.' });
    expect(first.status).toBe('done');
    expect(store.entries.get('indent style')?.content).toBe('Two spaces, no tabs');

    const persisted = kit.events.filter((e) => !e.type.endsWith('.delta'));
    const block = '[What H remembers]\nAbout this project:\n- Indent Style: Two spaces, no tabs';
    const second = await kit.run(null, {
      tools,
      memoryStore: store,
      requestHeaders: headers,
      conversation: rebuildConversation(persisted),
      userMessage: 'How do we indent?',
      memory: { content: block, ids: ['m1@1'] },
    });
    expect([second.status, second.reply]).toEqual(['done', 'Two spaces, as you said.']);

    // The memory is guidance right after the run's message, never in the system prompt.
    const types = kit.events.filter((e) => !e.type.endsWith('.delta')).map((e) => e.type);
    const secondStart = types.lastIndexOf('run.started');
    expect(types.slice(secondStart, secondStart + 3)).toEqual(['run.started', 'message.user', 'prompt.guidance']);
    expect(guidance(kit.events).find((g) => g.data.memoryIds)?.data).toEqual({ chunkIds: [], content: block, memoryIds: ['m1@1'] });
    const bodies = kit.server.requests.map((r) => r.body);
    expect(new Set(bodies.map((b) => JSON.stringify(b.messages[0]))).size).toBe(1);
    expect(JSON.stringify(bodies[0].messages[0])).not.toContain('Two spaces');
    expect(new Set(bodies.map((b) => JSON.stringify(b.tools))).size).toBe(1);
    const last = bodies.at(-1).messages.map((m: { content?: string }) => m.content ?? '');
    expect(last.some((c: string) => c.includes(block))).toBe(true);

    // Across the two runs the third request repeats the second's prompt as its prefix (≥ 95 %).
    const prompts = bodies.map((b) => renderPrompt(b));
    expect(commonPrefixLength(prompts[1], prompts[2]) / prompts[1].length).toBeGreaterThanOrEqual(0.95);

    // The log says what was told: the worker's next selection skips it at this version.
    expect([...rebuildConversation(kit.events.filter((e) => !e.type.endsWith('.delta'))).toldMemories]).toEqual(['m1@1']);
  });

  it('should say memory is unavailable where the run has no store', async () => {
    kit.server.load(scenario('no-store', [{ toolCalls: [call('recall', {})] }, { text: 'ok' }]));
    await kit.run(null, { tools: parentToolRegistry(), userMessage: 'What do you remember?' });
    const end = kit.events.find((e) => e.type === 'tool.end');
    expect(end?.data).toMatchObject({ name: 'recall', isError: true, result: 'Memory is not available in this run.' });
  });
});
