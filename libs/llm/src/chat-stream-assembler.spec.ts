import { ChatStreamAssembler, parseUsage } from './chat-stream-assembler';

const delta = (d: Record<string, unknown>, finish: string | null = null) => ({ choices: [{ index: 0, delta: d, finish_reason: finish }] });

describe(ChatStreamAssembler.name, () => {
  it('should assemble interleaved tool calls by index, even when arguments come before the name', () => {
    const a = new ChatStreamAssembler();
    const events = [
      delta({ role: 'assistant', content: '' }),
      delta({ reasoning_content: 'plan ' }),
      delta({ reasoning_content: 'it' }),
      delta({ tool_calls: [{ index: 1, function: { arguments: '{"pat' } }] }),
      delta({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'c1', function: { name: 'grep' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: 'tern":"x"}' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] }),
      delta({}, 'tool_calls'),
    ].flatMap((c) => a.push(c));
    expect(events).toEqual([
      { type: 'thinking', delta: 'plan ' },
      { type: 'thinking', delta: 'it' },
      { type: 'tool_call_start', index: 0, id: 'c0', name: 'read_file' },
      { type: 'tool_call_start', index: 1, id: 'c1', name: 'grep' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"pat' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"path":' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: 'tern":"x"}' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"a"}' },
    ]);
    expect(a.finished).toBe(true);
    expect(a.finish()).toEqual([
      {
        type: 'done',
        finishReason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          reasoningContent: 'plan it',
          toolCalls: [
            { id: 'c0', name: 'read_file', arguments: '{"path":"a"}' },
            { id: 'c1', name: 'grep', arguments: '{"pattern":"x"}' },
          ],
        },
      },
    ]);
  });

  it('should give a plain answer an empty-string content rather than null', () => {
    const a = new ChatStreamAssembler();
    a.push(delta({}, 'stop'));
    expect(a.message()).toEqual({ role: 'assistant', content: '' });
  });

  it('should report a stream without finish_reason as unfinished', () => {
    const a = new ChatStreamAssembler();
    a.push(delta({ content: 'half' }));
    expect(a.finished).toBe(false);
  });

  it('should read DeepSeek cache fields, falling back to OpenAI cached_tokens', () => {
    expect(
      parseUsage({ prompt_tokens: 100, completion_tokens: 7, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36, completion_tokens_details: { reasoning_tokens: 3 } }),
    ).toEqual({ promptTokens: 100, completionTokens: 7, cacheHitTokens: 64, cacheMissTokens: 36, reasoningTokens: 3 });
    expect(parseUsage({ prompt_tokens: 100, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 80 } })).toEqual({
      promptTokens: 100, completionTokens: 1, cacheHitTokens: 80, cacheMissTokens: 20,
    });
  });
});
