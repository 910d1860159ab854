import { PassThrough } from 'node:stream';
import type { AgentEvent } from '@h/contracts';
import type { SandboxProcess } from '@h/sandbox';
import { driveClaudeCode, type ClaudeDecision, type ClaudeToolRequest } from './claude-code-session';

/**
 * A stand-in for Claude Code's stdio: what the host writes arrives in `received`; `say` is
 * Claude Code printing a stream-json line. The real CLI runs in test/integration/claude-code.
 */
function fakeProcess() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const received: any[] = [];
  let exit: (code: number | null) => void = () => undefined;
  const exited = new Promise<number | null>((r) => (exit = r));
  let buf = '';
  stdin.on('data', (c: Buffer) => {
    buf += c.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      received.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  const killed = { count: 0 };
  const proc: SandboxProcess = {
    stdin,
    stdout,
    stderr,
    exited,
    kill: async () => {
      killed.count++;
      stdout.end();
      exit(143);
    },
  };
  return {
    proc,
    received,
    killed,
    say: (m: unknown) => stdout.write(`${JSON.stringify(m)}\n`),
    end: (code = 0) => {
      stdout.end();
      exit(code);
    },
  };
}

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!cond()) throw new Error('condition not met');
};

describe(driveClaudeCode.name, () => {
  it('should send the prompt, map messages onto H events and answer can_use_tool with the decision', async () => {
    const p = fakeProcess();
    const events: AgentEvent[] = [];
    const asked: ClaudeToolRequest[] = [];
    let answer: (d: ClaudeDecision) => void = () => undefined;
    const done = driveClaudeCode({
      process: p.proc,
      prompt: 'fix it',
      signal: new AbortController().signal,
      onEvent: async (e) => void events.push(e),
      decide: (request) => {
        asked.push(request);
        return new Promise((r) => (answer = r));
      },
    });
    await until(() => p.received.length === 1);
    expect(p.received[0]).toMatchObject({ type: 'user', message: { role: 'user', content: 'fix it' } });
    p.say({ type: 'system', subtype: 'init', session_id: 'sess-1' });
    p.say({ type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Look' } } });
    p.say({ type: 'assistant', message: { content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'ls' } }], stop_reason: 'tool_use' } });
    p.say({ type: 'control_request', request_id: 'req-1', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'tu1' } });
    p.say({ type: 'control_request', request_id: 'req-2', request: { subtype: 'mcp_message', server_name: 'x' } });
    await until(() => asked.length === 1 && p.received.length === 2);
    expect(asked[0]).toEqual({ requestId: 'req-1', toolName: 'Bash', input: { command: 'ls' }, toolUseId: 'tu1' });
    // an unsupported control request is answered with an error at once
    expect(p.received[1]).toMatchObject({ type: 'control_response', response: { subtype: 'error', request_id: 'req-2' } });
    answer({ behavior: 'allow', updatedInput: { command: 'ls -la' } });
    await until(() => p.received.length === 3);
    expect(p.received[2]).toEqual({ type: 'control_response', response: { subtype: 'success', request_id: 'req-1', response: { behavior: 'allow', updatedInput: { command: 'ls -la' } } } });
    p.say({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'a.txt' }], is_error: false }] } });
    p.say({ type: 'assistant', message: { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' } });
    p.say({ type: 'result', subtype: 'success', is_error: false, result: 'Done.', session_id: 'sess-1' });
    await until(() => p.proc.stdin.writableEnded);
    p.end(0);
    const outcome = await done;
    expect(outcome).toEqual({ status: 'done', reply: 'Done.', sessionId: 'sess-1' });
    expect(events.map((e) => e.type)).toEqual(['text.delta', 'message.assistant', 'tool.start', 'tool.end', 'message.assistant']);
    expect(events[2]).toEqual({ type: 'tool.start', data: { toolCallId: 'tu1', name: 'Bash', arguments: '{"command":"ls"}', category: 'command' } });
    expect(events[3]).toMatchObject({ type: 'tool.end', data: { toolCallId: 'tu1', name: 'Bash', result: 'a.txt', isError: false } });
    expect(events[1]).toEqual({ type: 'message.assistant', data: { content: 'Looking.', toolCalls: [{ id: 'tu1', name: 'Bash', arguments: '{"command":"ls"}' }], finishReason: 'tool_use' } });
  });

  it('should answer deny with the message, and report a failed result', async () => {
    const p = fakeProcess();
    const done = driveClaudeCode({
      process: p.proc,
      prompt: 'x',
      signal: new AbortController().signal,
      onEvent: async () => undefined,
      decide: async () => ({ behavior: 'deny', message: 'not here' }),
    });
    p.say({ type: 'control_request', request_id: 'r', request: { subtype: 'can_use_tool', tool_name: 'Write', input: { file_path: '/etc/x' } } });
    await until(() => p.received.length === 2);
    expect(p.received[1].response.response).toEqual({ behavior: 'deny', message: 'not here' });
    p.say({ type: 'result', subtype: 'error_max_turns', is_error: true, errors: ['too many turns'] });
    p.end(1);
    const outcome = await done;
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toEqual({ code: 'claude_code_error', message: expect.stringContaining('error_max_turns: too many turns') });
  });

  it('should kill the process when cancelled, and fail with its stderr when it exits without a result', async () => {
    const p = fakeProcess();
    const ctl = new AbortController();
    const done = driveClaudeCode({ process: p.proc, prompt: 'x', signal: ctl.signal, onEvent: async () => undefined, decide: () => new Promise(() => undefined) });
    p.say({ type: 'control_request', request_id: 'r', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {} } });
    ctl.abort();
    expect((await done).status).toBe('cancelled');
    expect(p.killed.count).toBe(1);

    const q = fakeProcess();
    const failed = driveClaudeCode({ process: q.proc, prompt: 'x', signal: new AbortController().signal, onEvent: async () => undefined, decide: async () => ({ behavior: 'allow' }) });
    (q.proc.stderr as PassThrough).write('Error: Invalid API key\n');
    await new Promise((r) => setImmediate(r));
    q.end(1);
    expect(await failed).toMatchObject({ status: 'failed', error: { code: 'claude_code_exited', message: expect.stringContaining('Invalid API key') } });
  });

  it('should stop a process that sends a line past the cap', async () => {
    const p = fakeProcess();
    const done = driveClaudeCode({ process: p.proc, prompt: 'x', signal: new AbortController().signal, onEvent: async () => undefined, decide: async () => ({ behavior: 'allow' }), maxLineBytes: 1000 });
    (p.proc.stdout as PassThrough).write('x'.repeat(5000));
    expect(await done).toMatchObject({ status: 'failed', error: { code: 'claude_code_protocol' } });
    expect(p.killed.count).toBe(1);
  });
});
