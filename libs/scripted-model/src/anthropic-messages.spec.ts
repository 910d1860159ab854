import { builtinScenarioDir } from './scenario';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model.server';

// Raw fetch over loopback: what Claude Code (or any Anthropic SDK client) sees.
interface SseEvent {
  event: string;
  data: any;
}

async function messages(server: ScriptedModelServer, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; events: SseEvent[]; json?: any }> {
  const res = await fetch(`${server.origin}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'run-secret', 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify({ max_tokens: 1024, stream: true, ...body }),
  });
  const text = await res.text();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return { status: res.status, events: [], json: JSON.parse(text) };
  const events = text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) };
    });
  return { status: res.status, events };
}

const TOOLS = [
  { name: 'Read', description: 'read', input_schema: { type: 'object' } },
  { name: 'Edit', description: 'edit', input_schema: { type: 'object' } },
];
// Claude Code puts a system reminder before the prompt and marks cache breakpoints.
const firstUser = {
  role: 'user',
  content: [
    { type: 'text', text: '<system-reminder>context</system-reminder>' },
    { type: 'text', text: 'Fix add() in src/math.js so the test passes', cache_control: { type: 'ephemeral' } },
  ],
};
const system = [{ type: 'text', text: 'You are Claude Code. '.repeat(60), cache_control: { type: 'ephemeral' } }];

function toolUses(events: SseEvent[]): Array<{ id: string; name: string; input: unknown }> {
  const out: Array<{ id: string; name: string; json: string }> = [];
  for (const e of events) {
    if (e.event === 'content_block_start' && e.data.content_block.type === 'tool_use') out[e.data.index] = { id: e.data.content_block.id, name: e.data.content_block.name, json: '' };
    if (e.event === 'content_block_delta' && e.data.delta.type === 'input_json_delta') out[e.data.index].json += e.data.delta.partial_json;
  }
  return out.filter(Boolean).map((t) => ({ id: t.id, name: t.name, input: JSON.parse(t.json) }));
}

describe('scripted model server: Anthropic Messages API', () => {
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await startScriptedModelServer({ scenarioDir: builtinScenarioDir(), demo: false });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('should stream a scripted tool call as Anthropic SSE events with usage incl. cache fields', async () => {
    const first = await messages(server, { model: 'claude-sonnet-4-5', system, tools: TOOLS, messages: [firstUser] });
    expect(first.status).toBe(200);
    const names = first.events.map((e) => e.event);
    expect(names[0]).toBe('message_start');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    for (const e of first.events) expect(e.data.type).toBe(e.event);
    // text block, then the tool_use block, each opened, streamed and closed in order
    expect(names.filter((n) => n === 'content_block_start')).toHaveLength(2);
    expect(names.filter((n) => n === 'content_block_stop')).toHaveLength(2);
    const text = first.events.filter((e) => e.data.delta?.type === 'text_delta').map((e) => e.data.delta.text).join('');
    expect(text).toBe('Reading the source first.');
    const [read] = toolUses(first.events);
    expect(read).toEqual({ id: expect.any(String), name: 'Read', input: { file_path: '/workspace/src/math.js' } });
    expect(first.events.filter((e) => e.data.delta?.type === 'input_json_delta').length).toBeGreaterThanOrEqual(3);
    const start = first.events[0].data.message;
    expect(start).toEqual(expect.objectContaining({ role: 'assistant', model: 'claude-sonnet-4-5', content: [] }));
    expect(start.usage).toEqual({ input_tokens: expect.any(Number), output_tokens: 1, cache_creation_input_tokens: expect.any(Number), cache_read_input_tokens: 0 });
    // breakpoints marked: the new prompt is written to the cache in whole units
    expect(start.usage.cache_creation_input_tokens % 64).toBe(0);
    const delta = first.events.at(-2)?.data;
    expect(delta.delta.stop_reason).toBe('tool_use');
    expect(delta.usage.output_tokens).toBeGreaterThan(0);

    // The next request carries the tool_use back and its tool_result: the same conversation's turn 2,
    // and the repeated prefix is read from the cache.
    const assistant = { role: 'assistant', content: [{ type: 'text', text: 'Reading the source first.' }, { type: 'tool_use', id: read.id, name: 'Read', input: read.input }] };
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: read.id, content: '1\tfunction add(a, b) {\n2\t  return a - b;\n3\t}' }] };
    const second = await messages(server, { model: 'claude-sonnet-4-5', system, tools: TOOLS, messages: [firstUser, assistant, result] });
    expect(server.failures).toEqual([]);
    expect(toolUses(second.events).map((t) => t.name)).toEqual(['Edit']);
    expect(second.events[0].data.message.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(server.requests.map((r) => [r.scenario, r.turn])).toEqual([
      ['claude-code-fix', 0],
      ['claude-code-fix', 1],
    ]);
    expect(server.requests[0].headers['x-api-key']).toBe('****');
  });

  it('should end a plain-text turn with stop_reason end_turn, and answer without streaming as one message', async () => {
    server.load({ name: 'one-answer', turns: [{ text: 'All done.' }, { text: 'Again.' }] });
    const streamed = await messages(server, { model: 'scripted:one-answer', messages: [{ role: 'user', content: 'hello' }] });
    expect(streamed.events.at(-2)?.data.delta.stop_reason).toBe('end_turn');
    const plain = await messages(server, { model: 'scripted:one-answer', stream: false, messages: [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'All done.' }, { role: 'user', content: 'more' }] });
    expect(plain.status).toBe(200);
    expect(plain.json).toEqual(
      expect.objectContaining({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'Again.' }],
        stop_reason: 'end_turn',
        usage: expect.objectContaining({ input_tokens: expect.any(Number), cache_read_input_tokens: expect.any(Number), cache_creation_input_tokens: 0 }),
      }),
    );
  });

  it('should answer an unmet expectation with an Anthropic error body naming scenario and turn', async () => {
    const res = await messages(server, { model: 'claude-sonnet-4-5', tools: [{ name: 'Bash' }], messages: [firstUser] });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('scenario "claude-code-fix" turn 1') } });
    expect(server.failures[0]).toContain('should offer tool "Read"');
  });

  it('should send scripted faults in Anthropic shapes (429 rate limit, error event mid-stream)', async () => {
    server.load({ name: 'faulty', turns: [{ text: 'eventually', fault: { type: 'rate_limit', retryAfterSeconds: 0 } }] });
    const limited = await messages(server, { model: 'scripted:faulty', messages: [{ role: 'user', content: 'x' }] });
    expect(limited.status).toBe(429);
    expect(limited.json.error.type).toBe('rate_limit_error');
    server.injectFault({ type: 'stream_error', afterChunks: 1 });
    const broken = await messages(server, { model: 'scripted:faulty', messages: [{ role: 'user', content: 'x' }] });
    expect(broken.events.map((e) => e.event)).toEqual(['message_start', 'error']);
  });

  it('should refuse another key given as x-api-key when the server has one', async () => {
    const keyed = await startScriptedModelServer({ scenarioDir: builtinScenarioDir(), apiKey: 'the-key' });
    try {
      const refused = await messages(keyed, { model: 'claude-sonnet-4-5', messages: [firstUser] }, { 'x-api-key': 'wrong' });
      expect(refused.status).toBe(401);
      expect(refused.json.error.type).toBe('authentication_error');
      const allowed = await messages(keyed, { model: 'claude-sonnet-4-5', tools: TOOLS, messages: [firstUser] }, { 'x-api-key': 'the-key' });
      expect(allowed.status).toBe(200);
    } finally {
      await keyed.close();
    }
  });
});
