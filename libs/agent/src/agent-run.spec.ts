import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAgentEvent } from '@h/contracts';
import { builtinScenarioDir, commonPrefixLength, loadScenarioFile, renderPrompt } from '@h/scripted-model';
import { FINAL_REPLY_REMINDER } from './agent-run';
import { pairingViolations, rebuildConversation } from './conversation';
import { createAgentKit, eventTypes, GOOD_SUMMARY, scenario, type AgentKit } from './testing/agent-test-kit';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

/** Per request after the first: the share of the previous request's prompt it repeats as its prefix. */
function previousRepeated(kit: AgentKit): number[] {
  const prompts = kit.server.requests.map((r) => renderPrompt(r.body ?? {}));
  return prompts.slice(1).map((p, i) => commonPrefixLength(prompts[i], p) / prompts[i].length);
}

describe('runAgent', () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit({ maxRetries: 1 })));
  afterEach(() => kit.close());

  it('should fix a failing test end to end and leave a log that rebuilds the same conversation', async () => {
    const result = await kit.run(loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json')));

    expect(result.status).toBe('done');
    expect(result.summary).toContain('### Changes Made');
    expect(readFileSync(join(kit.dir, 'src/math.js'), 'utf8')).toContain('return a + b;');
    expect(kit.server.failures).toEqual([]);
    expect(eventTypes(kit.events)).toEqual([
      'run.started', 'message.user',
      'message.assistant', 'usage', 'tool.start', 'tool.end', 'tool.start', 'tool.end',
      'prompt.guidance', 'message.assistant', 'usage', 'tool.start', 'tool.end',
      'prompt.guidance', 'message.assistant', 'usage', 'tool.start', 'tool.end',
      'message.assistant', 'usage', 'tool.start', 'tool.end',
      'message.assistant', 'usage', 'tool.start', 'tool.end', 'summary.written', 'tool.start', 'tool.end',
      'run.done',
    ]);
    expect(kit.events.filter((e) => e.type === 'thinking.delta').length).toBeGreaterThan(0);
    // Every event matches its contract schema (what api, worker and web validate against).
    for (const event of kit.events) expect(() => parseAgentEvent(JSON.parse(JSON.stringify(event)))).not.toThrow();
    // Event sourcing: the persisted (non-ephemeral) events alone give back the live conversation.
    const persisted = kit.events.filter((e) => !e.type.endsWith('.delta'));
    const rebuilt = rebuildConversation(JSON.parse(JSON.stringify(persisted)));
    expect(rebuilt.messages).toEqual(result.conversation.messages);
    expect(pairingViolations(rebuilt.messages)).toEqual([]);
    // Usage accumulated per run, cost from the price table.
    expect(result.usage.requests).toBe(5);
    expect(result.usage.promptTokens).toBe(kit.server.requests.reduce((n, r) => n + r.promptTokens, 0));
    expect(result.usage.cacheHitTokens).toBeGreaterThan(0);
    expect(result.usage.costUsd).toBeGreaterThan(0);
  });

  it('should keep the system prompt byte-identical and only append after the previous request, across runs', async () => {
    kit.server.load(
      scenario('two-runs', [
        { toolCalls: [call('read_file', { path: 'src/math.js' })] },
        { toolCalls: [call('run_command', { command: 'npm test' })] },
        { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
        { text: 'It holds helpers.' },
      ]),
    );
    kit.write({ 'src/math.js': 'module.exports = {};\n', 'package.json': '{"scripts":{"test":"node -e 1"}}' });
    const headers = { 'x-conversation-id': 'same-session' };
    const first = await kit.run(null, { requestHeaders: headers });
    const persisted = kit.events.filter((e) => !e.type.endsWith('.delta'));
    const second = await kit.run(null, {
      requestHeaders: headers,
      conversation: rebuildConversation(persisted),
      userMessage: 'What is in src/math.js?',
    });
    expect([first.status, second.status, second.reply]).toEqual(['done', 'done', 'It holds helpers.']);

    const bodies = kit.server.requests.map((r) => r.body);
    const systems = bodies.map((b) => JSON.stringify(b.messages[0]));
    expect(new Set(systems).size).toBe(1);
    expect(new Set(bodies.map((b) => JSON.stringify(b.tools))).size).toBe(1);
    for (let i = 1; i < bodies.length; i++) {
      const previous = bodies[i - 1].messages.map((m: unknown) => JSON.stringify(m));
      const current = bodies[i].messages.map((m: unknown) => JSON.stringify(m));
      // Every earlier message is resent unchanged except the newest, which may gain guidance.
      expect(current.slice(0, previous.length - 1)).toEqual(previous.slice(0, -1));
      expect(current[previous.length - 1].startsWith(previous[previous.length - 1].slice(0, -2))).toBe(true);
    }
    expect(kit.events.filter((e) => e.type === 'run.started').map((e) => (e.data as { systemChunkIds: string[] }).systemChunkIds)).toEqual([
      ['core_rules', 'lang_general', 'prior_history'],
      ['core_rules', 'lang_general', 'prior_history'],
    ]);
  });

  it('should compact history mid-run as an event that the rebuild honours', async () => {
    kit.write({ 'a.txt': 'a'.repeat(3000) });
    const reads = Array.from({ length: 5 }, () => ({ toolCalls: [call('read_file', { path: 'a.txt' })] }));
    const result = await kit.run(
      scenario('compacting', [...reads, { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] }]),
      { compaction: { triggerTokens: 2_500, triggerMessages: 24 } },
    );
    expect(result.status).toBe('done');
    const compactions = kit.events.filter((e) => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    const after = kit.server.requests[kit.server.requests.length - 1].body.messages;
    expect(after[1]).toMatchObject({ role: 'user', content: expect.stringContaining('[Compacted history]') });
    expect(after[1].content).toContain('Current request (verbatim): There is a failing test');
    const rebuilt = rebuildConversation(kit.events.filter((e) => !e.type.endsWith('.delta')));
    expect(rebuilt.messages).toEqual(result.conversation.messages);
    expect(pairingViolations(rebuilt.messages)).toEqual([]);
    // Each compaction rewrites the head once; every other request extends the previous one.
    const rewritten = previousRepeated(kit).filter((share) => share < 0.95);
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.length).toBeLessThanOrEqual(compactions.length);
  });

  it('should not compact a 1M-token model at the seed thresholds for small windows', async () => {
    kit.write({ 'a.txt': `${'a'.repeat(99)}\n`.repeat(120) });
    const reads = Array.from({ length: 5 }, () => ({ toolCalls: [call('read_file', { path: 'a.txt' })] }));
    const result = await kit.run(scenario('no-compacting', [...reads, { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] }]));
    expect(result.status).toBe('done');
    const last = kit.events.filter((e) => e.type === 'usage').at(-1);
    // Past the seed's 10,000-token trigger, far below half of a 1M window: nothing compacted.
    expect(last?.type === 'usage' && last.data.contextTokens).toBeGreaterThan(15_000);
    expect(kit.events.filter((e) => e.type === 'compaction')).toEqual([]);
    expect(previousRepeated(kit).every((share) => share === 1)).toBe(true);
  });

  it('should continue a session whose log ended mid-batch with a paired conversation', async () => {
    kit.server.load(scenario('resume', [{ text: 'Picking up again.' }]));
    const crashed = rebuildConversation([
      { type: 'run.started', data: { model: 'deepseek-v4-flash', thinking: false, systemChunkIds: ['core_rules', 'lang_general', 'prior_history'] } },
      { type: 'message.user', data: { content: 'read both' } },
      { type: 'message.assistant', data: { content: null, toolCalls: [{ id: 'x1', name: 'read_file', arguments: '{"path":"a"}' }, { id: 'x2', name: 'read_file', arguments: '{"path":"b"}' }] } },
      { type: 'tool.end', data: { toolCallId: 'x1', name: 'read_file', result: 'A', isError: false, durationMs: 1 } },
    ]);
    const result = await kit.run(null, { conversation: crashed, userMessage: 'hello?', thinking: false });
    expect(result.status).toBe('done');
    const wire = kit.server.requests[0].body.messages as Array<{ role: string; tool_call_id?: string; content: string }>;
    expect(wire.map((m) => [m.role, m.tool_call_id ?? null])).toEqual([
      ['system', null], ['user', null], ['assistant', null], ['tool', 'x1'], ['tool', 'x2'], ['user', null],
    ]);
    expect(wire[4].content).toContain('interrupted');
  });

  it('should end on a plain reply when no work was done', async () => {
    const result = await kit.run(scenario('answer', [{ text: 'Hello! Ask me about the code.' }]), { userMessage: 'hi' });
    expect(result).toMatchObject({ status: 'done', reply: 'Hello! Ask me about the code.', summary: null });
    expect(eventTypes(kit.events)).toEqual(['run.started', 'message.user', 'message.assistant', 'usage', 'run.done']);
  });

  it('should remind the model to summarise when it replies in plain text after working', async () => {
    kit.write({ 'a.txt': 'x' });
    const result = await kit.run(
      scenario('plain-after-work', [
        { toolCalls: [call('read_file', { path: 'a.txt' })] },
        { text: 'Done, the file says x.' },
        { expect: { lastMessageRole: 'user', lastMessageContains: 'write_summary' }, toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
      ]),
    );
    expect(result.status).toBe('done');
    expect(kit.server.failures).toEqual([]);
    expect(kit.events).toContainEqual({ type: 'message.user', data: { content: FINAL_REPLY_REMINDER, synthetic: true } });
  });

  it('should fail clearly when the model never completes after working', async () => {
    kit.write({ 'a.txt': 'x' });
    const result = await kit.run(
      scenario('never-completes', [{ toolCalls: [call('read_file', { path: 'a.txt' })] }, { text: 'done' }, { text: 'done' }, { text: 'done' }]),
    );
    expect(result).toMatchObject({ status: 'failed', error: { code: 'no_completion' } });
  });

  it('should enforce the summary lock: a vague summary and the completion batched with it are refused', async () => {
    kit.write({ 'a.txt': 'x' });
    const result = await kit.run(
      scenario('summary-lock', [
        { toolCalls: [call('write_summary', { summary: 'I did the task' }), call('task_complete')] },
        { expect: { messagesContain: ['Summary rejected', 'call write_summary first'] }, toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
      ]),
    );
    expect(result.status).toBe('done');
    expect(kit.server.failures).toEqual([]);
    const ends = kit.events.filter((e) => e.type === 'tool.end').map((e) => [e.data.name, e.data.isError]);
    expect(ends).toEqual([['write_summary', true], ['task_complete', true], ['write_summary', false], ['task_complete', false]]);
  });

  it('should enforce the problem lock until read_problems reports no errors', async () => {
    kit.write({ 'package.json': JSON.stringify({ scripts: { build: 'node build.js' } }), 'build.js': 'console.error("error: broken"); process.exit(1);\n' });
    const result = await kit.run(
      scenario('problem-lock', [
        { toolCalls: [call('read_problems'), call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
        {
          expect: { lastMessageContains: 'Cannot complete: 1 error still present' },
          toolCalls: [call('write_file', { path: 'build.js', content: 'console.log("ok");\n' })],
        },
        { toolCalls: [call('read_problems'), call('task_complete')] },
      ]),
    );
    expect(result.status).toBe('done');
    expect(kit.server.failures).toEqual([]);
  });

  it('should answer unknown tools and malformed arguments with error results and carry on', async () => {
    const result = await kit.run(
      scenario('bad-calls', [
        { toolCalls: [{ name: 'cat', arguments: { path: 'x' } }, { name: 'read_file', arguments: '{"path":' }] },
        { expect: { messagesContain: ['Unknown tool "cat"', 'Invalid JSON arguments for read_file'] }, text: 'Sorry.' },
        { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] },
      ]),
    );
    expect(result.status).toBe('done');
    expect(kit.server.failures).toEqual([]);
  });

  it('should stop at the step limit with a clear failure', async () => {
    kit.write({ 'a.txt': 'x' });
    const turns = Array.from({ length: 4 }, () => ({ toolCalls: [call('read_file', { path: 'a.txt' })] }));
    const result = await kit.run(scenario('loops', turns), { maxSteps: 3 });
    expect(result).toMatchObject({ status: 'failed', steps: 3, error: { code: 'step_limit' } });
    expect(kit.events.at(-1)).toMatchObject({ type: 'run.failed', data: { code: 'step_limit' } });
  });

  it('should fail with the provider error when the model keeps failing', async () => {
    kit.server.injectFault({ type: 'server_error', status: 503, times: 10 });
    const result = await kit.run(scenario('unreachable', [{ text: 'never' }]));
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('model_server');
    expect(result.error?.message).toMatch(/^The model provider failed after 2 attempt\(s\): /);
  });

  it('should restart a step once when the stream drops after output reached the loop', async () => {
    const text = 'A reply long enough to arrive in several chunks of streamed text.';
    const result = await kit.run(scenario('dropped', [{ text, fault: { type: 'drop', afterChunks: 3 } }]), { userMessage: 'hi' });
    expect(result).toMatchObject({ status: 'done', reply: text });
    expect(kit.events).toContainEqual({ type: 'error', data: { code: 'model_stream_restarted', message: expect.any(String) } });
    expect(eventTypes(kit.events).filter((t) => t === 'message.assistant')).toHaveLength(1);
  });

  it('should recover from a transient 429 through the provider retry', async () => {
    kit.server.injectFault({ type: 'rate_limit', retryAfterSeconds: 0 });
    const result = await kit.run(scenario('flaky', [{ text: 'Hi.' }]), { userMessage: 'hi' });
    expect(result).toMatchObject({ status: 'done', reply: 'Hi.' });
  });
});
