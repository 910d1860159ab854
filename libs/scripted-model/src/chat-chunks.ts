import { estimateTokens, type PromptUsage } from './prompt-accounting';

/** One assistant answer, ready to be sent. */
export interface ScriptedAnswer {
  thinking?: string;
  text?: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string;
}

export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_cache_hit_tokens: number;
  prompt_cache_miss_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

const TEXT_PIECE = 16;

/** Splits text into pieces of at most `size` characters (empty text gives no piece). */
export function splitText(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export function usageFor(answer: ScriptedAnswer, prompt: PromptUsage): WireUsage {
  const reasoning = estimateTokens(answer.thinking ?? '');
  const output = `${answer.text ?? ''}${answer.toolCalls.map((c) => c.name + c.arguments).join('')}`;
  const completion = reasoning + estimateTokens(output);
  const usage: WireUsage = {
    prompt_tokens: prompt.promptTokens,
    completion_tokens: completion,
    total_tokens: prompt.promptTokens + completion,
    prompt_cache_hit_tokens: prompt.cacheHitTokens,
    prompt_cache_miss_tokens: prompt.cacheMissTokens,
    prompt_tokens_details: { cached_tokens: prompt.cacheHitTokens },
  };
  if (answer.thinking) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  return usage;
}

function chunk(meta: ResponseMeta, delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_scripted',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/**
 * The chunks DeepSeek streams for one answer, in its order: a role chunk, reasoning_content
 * pieces, content pieces, each tool call (id and name first, then its arguments in at least
 * three pieces so clients must reassemble them), and a final chunk with the finish_reason.
 * The usage chunk follows separately (see usageChunk).
 */
export function answerChunks(answer: ScriptedAnswer, meta: ResponseMeta): Array<Record<string, unknown>> {
  const chunks = [chunk(meta, { role: 'assistant', content: '' })];
  for (const piece of splitText(answer.thinking ?? '', TEXT_PIECE)) chunks.push(chunk(meta, { reasoning_content: piece }));
  for (const piece of splitText(answer.text ?? '', TEXT_PIECE)) chunks.push(chunk(meta, { content: piece }));
  answer.toolCalls.forEach((call, index) => {
    chunks.push(chunk(meta, { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    const size = Math.max(1, Math.min(TEXT_PIECE, Math.ceil(call.arguments.length / 3)));
    for (const piece of splitText(call.arguments, size)) {
      chunks.push(chunk(meta, { tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk(meta, {}, answer.finishReason));
  return chunks;
}

export function usageChunk(meta: ResponseMeta, usage: WireUsage): Record<string, unknown> {
  return { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, system_fingerprint: 'fp_scripted', choices: [], usage };
}

/** The non-streaming response body. */
export function completionBody(answer: ScriptedAnswer, meta: ResponseMeta, usage: WireUsage): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: answer.text ?? (answer.toolCalls.length ? null : '') };
  if (answer.thinking) message.reasoning_content = answer.thinking;
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_scripted',
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage,
  };
}
