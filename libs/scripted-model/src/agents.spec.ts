import { isFirstAgentTurn, taskText } from './agents';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model.server';

async function ask(server: ScriptedModelServer, messages: unknown[]): Promise<{ text: string; callId: string | null; calls: string[] }> {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'scripted:parent', stream: false, messages }),
  });
  const body = await res.json();
  const message = body.choices?.[0]?.message ?? {};
  return { text: message.content ?? JSON.stringify(body), callId: message.tool_calls?.[0]?.id ?? null, calls: (message.tool_calls ?? []).map((c: any) => c.function.name) };
}

const sys = (text: string) => ({ role: 'system', content: text });
const user = (text: string) => ({ role: 'user', content: text });

describe('sub-agent scripts (scenario agents)', () => {
  it('should find the task after a prefix of earlier task/report pairs, and before the agent\'s own calls', () => {
    const prefixed = { messages: [sys('s'), user('t1'), { role: 'assistant', content: 'r1' }, user('t2')] };
    expect(taskText(prefixed)).toBe('t2');
    expect(isFirstAgentTurn(prefixed)).toBe(true);
    const later = { messages: [...prefixed.messages, { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'grep', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'x', content: 'ok' }] };
    expect(taskText(later)).toBe('t2');
    expect(isFirstAgentTurn(later)).toBe(false);
  });

  describe('over HTTP', () => {
    let server: ScriptedModelServer;
    beforeAll(async () => {
      server = await startScriptedModelServer({ demo: false });
      server.load({
        name: 'parent',
        turns: [{ toolCalls: [{ name: 'delegate_task', arguments: { task: 'find A', agent_type: 'code-search' } }] }, { text: 'parent done' }],
        agents: [
          { name: 'search-a', match: { systemContains: 'Code Search Agent', taskContains: 'find A' }, turns: [{ toolCalls: [{ name: 'grep', arguments: { pattern: 'A' } }] }, { text: 'A is in a.ts' }] },
          { name: 'search-b', match: { systemContains: 'Code Search Agent', taskContains: 'find B' }, turns: [{ text: 'B is in b.ts' }] },
        ],
      });
    });
    afterAll(() => server.close());

    it('should answer the main agent and each sub-agent from its own script, each as its own conversation', async () => {
      const parent = await ask(server, [sys('You are H.'), user('delegate please')]);
      expect(parent.calls).toEqual(['delegate_task']);
      const a1 = await ask(server, [sys("You are H's Code Search Agent"), user('find A')]);
      expect(a1.calls).toEqual(['grep']);
      // Another sub-agent of the profile, with the first one's pair as its prefix, while A is open.
      const b = await ask(server, [sys("You are H's Code Search Agent"), user('find A'), { role: 'assistant', content: 'A is in a.ts' }, user('find B')]);
      expect(b.text).toBe('B is in b.ts');
      const a2 = await ask(server, [
        sys("You are H's Code Search Agent"), user('find A'),
        { role: 'assistant', content: null, tool_calls: [{ id: a1.callId, type: 'function', function: { name: 'grep', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: a1.callId, content: 'a.ts:1' },
      ]);
      expect(a2.text).toBe('A is in a.ts');
      const back = await ask(server, [
        sys('You are H.'), user('delegate please'),
        { role: 'assistant', content: null, tool_calls: [{ id: parent.callId, type: 'function', function: { name: 'delegate_task', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: parent.callId, content: 'A is in a.ts' },
      ]);
      expect(back.text).toBe('parent done');
      expect(server.requests.map((r) => r.scenario)).toEqual(['parent', 'parent/search-a', 'parent/search-b', 'parent/search-a', 'parent']);
      expect(server.requests.map((r) => r.firstUserMessage)).toEqual(['delegate please', 'find A', 'find B', 'find A', 'delegate please']);
      expect(server.failures).toEqual([]);
    });
  });
});
