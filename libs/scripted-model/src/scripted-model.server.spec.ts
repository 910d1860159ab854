import { builtinScenarioDir, loadScenarioDir, parseScenario, ScenarioError } from './scenario';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model.server';

// Raw fetch over loopback: this is what any OpenAI-compatible client sees.
interface Sent {
  status: number;
  chunks: any[];
  json?: any;
}

async function post(server: ScriptedModelServer, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Sent> {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ stream: true, ...body }),
  });
  const text = await res.text();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return { status: res.status, chunks: [], json: JSON.parse(text) };
  const chunks = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: ') && !block.startsWith('data: [DONE]'))
    .map((block) => JSON.parse(block.slice('data: '.length)));
  expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  return { status: res.status, chunks };
}

const user = (content: string): Array<Record<string, unknown>> => [{ role: 'user', content }];
const contentOf = (sent: Sent): string => sent.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
const toolNames = (sent: Sent): string[] =>
  sent.chunks.flatMap((c) => (c.choices[0]?.delta?.tool_calls ?? []).map((t: any) => t.function?.name).filter(Boolean));

describe('startScriptedModelServer', () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await startScriptedModelServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('should replay a scenario turn by turn in DeepSeek chunk order and record every request body', async () => {
    server.load({
      name: 'two-turns',
      turns: [
        { thinking: 'think first', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] },
        { text: 'finished' },
      ],
    });
    const first = await post(server, { model: 'm', messages: user('hi') });
    const deltas = first.chunks.map((c) => c.choices[0]?.delta ?? {});
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas.find((d) => d.reasoning_content)).toBeDefined();
    expect(toolNames(first)).toEqual(['read_file']);
    expect(first.chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    const usage = first.chunks.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual(
      expect.objectContaining({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), prompt_cache_hit_tokens: 0 }),
    );
    const id = first.chunks.find((c) => c.choices[0]?.delta?.tool_calls?.[0]?.id).choices[0].delta.tool_calls[0].id;

    const second = await post(server, {
      model: 'm',
      messages: [
        ...user('hi'),
        { role: 'assistant', content: null, reasoning_content: 'think first', tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }] },
        { role: 'tool', tool_call_id: id, content: 'file text' },
      ],
    });
    expect(contentOf(second)).toBe('finished');
    expect(server.requests.map((r) => [r.scenario, r.turn, r.outcome])).toEqual([
      ['two-turns', 0, 'completed'],
      ['two-turns', 1, 'completed'],
    ]);
    expect(server.requests[1].body.messages[2]).toEqual({ role: 'tool', tool_call_id: id, content: 'file text' });
    expect(server.failures).toEqual([]);
  });

  it('should refuse a request whose expectations fail, say why, and keep the turn for a corrected retry', async () => {
    server.load({ name: 'strict', turns: [{ expect: { toolsInclude: ['task_complete'], lastMessageContains: 'PASS' }, text: 'ok' }] });
    const bad = await post(server, { model: 'm', messages: user('run it'), tools: [{ type: 'function', function: { name: 'read_file' } }] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('scenario "strict" turn 1 (request #1)');
    expect(bad.json.error.message).toContain('should offer tool "task_complete" but offers [read_file]');
    expect(bad.json.error.message).toContain('should contain "PASS" but was "run it"');
    expect(server.failures).toHaveLength(2);
    expect(server.requests[0].failures).toHaveLength(2);

    const good = await post(server, { model: 'm', messages: user('PASS'), tools: [{ type: 'function', function: { name: 'task_complete' } }] });
    expect(contentOf(good)).toBe('ok');
  });

  it('should report a request beyond the last scripted turn', async () => {
    server.load({ name: 'short', turns: [{ text: 'only answer' }] });
    await post(server, { model: 'm', messages: user('q') });
    const extra = await post(server, { model: 'm', messages: [...user('q'), { role: 'assistant', content: 'only answer' }, ...user('more?')] });
    expect(extra.status).toBe(400);
    expect(server.failures[0]).toMatch(/scenario "short" turn 2 .*only 1 turn/);
  });

  it('should keep concurrent conversations apart, by first user message or by x-conversation-id', async () => {
    server.load({ name: 'steps', turns: [{ text: 'step 1' }, { text: 'step 2' }] });
    const followUp = (first: string): Array<Record<string, unknown>> => [...user(first), { role: 'assistant', content: 'step 1' }, ...user('next')];
    const [a1, b1] = await Promise.all([post(server, { model: 'm', messages: user('alpha') }), post(server, { model: 'm', messages: user('beta') })]);
    const [a2, b2] = await Promise.all([post(server, { model: 'm', messages: followUp('alpha') }), post(server, { model: 'm', messages: followUp('beta') })]);
    expect([a1, b1, a2, b2].map(contentOf)).toEqual(['step 1', 'step 1', 'step 2', 'step 2']);

    const h1 = await post(server, { model: 'm', messages: user('same') }, { 'x-conversation-id': 'run-1' });
    const h2 = await post(server, { model: 'm', messages: user('same') }, { 'x-conversation-id': 'run-2' });
    expect([h1, h2].map(contentOf)).toEqual(['step 1', 'step 1']);
  });

  it('should keep header-less conversations with the same first message apart by the tool-call ids they carry back', async () => {
    server.load({
      name: 'tools',
      turns: [{ toolCalls: [{ name: 'list_files', arguments: {} }] }, { toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }, { text: 'done' }],
    });
    const callsOf = (sent: Sent) =>
      sent.chunks.flatMap((c) => (c.choices[0]?.delta?.tool_calls ?? []).filter((t: any) => t.id).map((t: any) => ({ id: t.id, type: 'function', function: { name: t.function.name, arguments: '{}' } })));
    const next = (history: Array<Record<string, unknown>>, sent: Sent) => {
      const calls = callsOf(sent);
      return [...history, { role: 'assistant', content: null, tool_calls: calls }, ...calls.map((c: any) => ({ role: 'tool', tool_call_id: c.id, content: 'ok' }))];
    };
    // Two runs of the same task at once, as H's worker sends them: no conversation header.
    const [a1, b1] = await Promise.all([post(server, { model: 'm', messages: user('same task') }), post(server, { model: 'm', messages: user('same task') })]);
    expect([toolNames(a1), toolNames(b1)]).toEqual([['list_files'], ['list_files']]);
    const aHistory = next(user('same task'), a1);
    const bHistory = next(user('same task'), b1);
    const [a2, b2] = await Promise.all([post(server, { model: 'm', messages: aHistory }), post(server, { model: 'm', messages: bHistory })]);
    expect([toolNames(a2), toolNames(b2)]).toEqual([['read_file'], ['read_file']]);
    const [a3, b3] = await Promise.all([post(server, { model: 'm', messages: next(aHistory, a2) }), post(server, { model: 'm', messages: next(bHistory, b2) })]);
    expect([a3, b3].map(contentOf)).toEqual(['done', 'done']);
    expect(server.failures).toEqual([]);
    expect(new Set(server.requests.map((r) => r.conversation)).size).toBe(2);
  });

  it('should start a conversation over when a request carries no assistant message', async () => {
    server.load({ name: 'steps', turns: [{ text: 'step 1' }, { text: 'step 2' }] });
    await post(server, { model: 'm', messages: user('task') });
    const again = await post(server, { model: 'm', messages: user('task') });
    expect(contentOf(again)).toBe('step 1');
  });

  it('should count a cache hit for the prefix shared with the previous request, in 64-token units', async () => {
    server.load({ name: 'steps', turns: [{ text: 'step 1' }, { text: 'step 2' }] });
    const system = { role: 'system', content: 'S'.repeat(2000) };
    const first = await post(server, { model: 'm', messages: [system, ...user('go')] });
    const second = await post(server, { model: 'm', messages: [system, ...user('go'), { role: 'assistant', content: 'step 1' }, ...user('on')] });
    const u1 = first.chunks.at(-1).usage;
    const u2 = second.chunks.at(-1).usage;
    expect(u1.prompt_cache_hit_tokens).toBe(0);
    expect(u1.prompt_cache_miss_tokens).toBe(u1.prompt_tokens);
    // The whole first prompt (2,062 characters, 515 whole tokens) is the shared prefix; only
    // whole 64-token units of it are hits: 8 × 64 = 512.
    expect(u1.prompt_tokens).toBe(516);
    expect(u2.prompt_cache_hit_tokens).toBe(512);
    expect(u2.prompt_cache_hit_tokens + u2.prompt_cache_miss_tokens).toBe(u2.prompt_tokens);
    expect(server.requests[1].prefixShare).toBeGreaterThan(0.9);
  });

  it('should select scenarios by model name, by header and by first-message match', async () => {
    server.load({ name: 'by-model', turns: [{ text: 'from model name' }] }, { makeDefault: false });
    server.load({ name: 'by-header', turns: [{ text: 'from header' }] }, { makeDefault: false });
    server.load({ name: 'by-match', match: { firstUserMessageContains: 'magic words' }, turns: [{ text: 'from match' }] }, { makeDefault: false });
    expect(contentOf(await post(server, { model: 'scripted:by-model', messages: user('x') }))).toBe('from model name');
    expect(contentOf(await post(server, { model: 'm', messages: user('y') }, { 'x-scripted-scenario': 'by-header' }))).toBe('from header');
    expect(contentOf(await post(server, { model: 'm', messages: user('say the magic words') }))).toBe('from match');
    const unknown = await post(server, { model: 'scripted:nope', messages: user('z') });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toMatch(/unknown scenario "nope" \(loaded: .*by-model/);
  });

  it('should answer unmatched requests as the clearly labelled demo model', async () => {
    const demo = await startScriptedModelServer();
    try {
      const sent = await post(demo, { model: 'deepseek-v4-flash', messages: user('please refactor my app') });
      expect(contentOf(sent)).toMatch(/^\[scripted demo model\] .*not a real AI.*please refactor my app/);
      // It quotes what the user typed, not the context H appends after it, and says how to leave the demo.
      const withContext = await post(demo, { model: 'deepseek-v4-flash', messages: user('add a README\n\n[Workspace file tree] 0 files, paths relative to the workspace root.') });
      expect(contentOf(withContext)).toContain('You said: "add a README".');
      expect(contentOf(withContext)).not.toContain('Workspace file tree');
      expect(contentOf(withContext)).toContain('remove DEEPSEEK_BASE_URL');
    } finally {
      await demo.close();
    }
  });

  it('should answer without streaming when stream is false', async () => {
    server.load({ name: 'plain', turns: [{ thinking: 'hm', toolCalls: [{ name: 'grep', arguments: { pattern: 'x' } }] }] });
    const sent = await post(server, { model: 'm', messages: user('q'), stream: false });
    expect(sent.status).toBe(200);
    expect(sent.json.choices[0].message).toMatchObject({
      role: 'assistant',
      reasoning_content: 'hm',
      tool_calls: [{ type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } }],
    });
    expect(sent.json.usage.prompt_cache_miss_tokens).toBeGreaterThan(0);
  });

  it('should answer 429 with Retry-After and 500 as scripted, then the turn itself', async () => {
    server.load({ name: 'faults', turns: [{ fault: { type: 'rate_limit', retryAfterSeconds: 7 }, text: 'ok' }] });
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: user('q') }) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    server.injectFault({ type: 'server_error' });
    expect((await post(server, { model: 'm', messages: user('q') })).status).toBe(500);
    expect(contentOf(await post(server, { model: 'm', messages: user('q') }))).toBe('ok');
  });

  it('should leave out reasoning when the request turns thinking off', async () => {
    server.load({ name: 'think', turns: [{ thinking: 'secret', text: 'answer' }] });
    const sent = await post(server, { model: 'deepseek-v4-flash', thinking: { type: 'disabled' }, messages: user('q') });
    expect(sent.chunks.some((c) => c.choices[0]?.delta?.reasoning_content)).toBe(false);
    expect(contentOf(sent)).toBe('answer');
  });

  it('should reject other API keys with a DeepSeek-style 401 when a key is configured', async () => {
    const guarded = await startScriptedModelServer({ apiKey: 'sk-right' });
    try {
      const res = await fetch(`${guarded.url}/models`, { headers: { authorization: 'Bearer sk-wrong-1234' } });
      expect(res.status).toBe(401);
      expect((await res.json()).error.message).toBe('Authentication Fails, Your api key: ****1234 is invalid');
      const ok = await fetch(`${guarded.url}/models`, { headers: { authorization: 'Bearer sk-right' } });
      expect((await ok.json()).data.map((m: { id: string }) => m.id)).toContain('scripted-demo');
      expect(guarded.requests[1].headers.authorization).toBe('Bearer ****');
      const health = await fetch(`${guarded.origin}/health`);
      expect(await health.json()).toEqual({ status: 'ok', scenarios: [] });
      expect(guarded.requests).toHaveLength(2);
    } finally {
      await guarded.close();
    }
  });
});

describe(parseScenario.name, () => {
  it('should name the file and the bad field of an invalid scenario', () => {
    expect(() => parseScenario({ name: 'x', turns: [{ fault: { type: 'explode' } }] }, 'bad.json')).toThrow(ScenarioError);
    expect(() => parseScenario({ name: 'x', turns: [{ txt: 'typo' }] }, 'bad.json')).toThrow(/bad\.json[\s\S]*txt/);
  });

  it('should load the shipped example scenarios', () => {
    const names = loadScenarioDir(builtinScenarioDir()).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['fix-failing-test', 'answer-question', 'flaky-provider']));
  });
});
