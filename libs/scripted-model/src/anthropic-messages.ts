// The Anthropic Messages API dialect of the scripted server (`POST /v1/messages`), as Claude Code
// speaks it. A request is translated into the OpenAI wire shape the rest of the server reads
// (expectations, conversation keys, prompt accounting), so one scenario file drives both dialects;
// the answer goes back as Anthropic's SSE events or message body.
import { splitText, type ResponseMeta, type ScriptedAnswer } from './chat-chunks';
import type { WireRequest } from './expectations';
import { CACHE_UNIT_TOKENS, estimateTokens, type PromptUsage } from './prompt-accounting';

export const ANTHROPIC_PATHS = new Set(['/v1/messages', '/messages']);

type Block = { type?: string; text?: unknown; thinking?: unknown; id?: unknown; name?: unknown; input?: unknown; tool_use_id?: unknown; content?: unknown };

interface AnthropicBody {
  model?: string;
  system?: unknown;
  messages?: Array<{ role?: string; content?: unknown }>;
  tools?: Array<{ name?: string }>;
  stream?: boolean;
  thinking?: { type?: string };
}

const blocks = (content: unknown): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? (content as Block[]) : [];

const blockText = (content: unknown): string =>
  blocks(content)
    .map((b) => (typeof b.text === 'string' ? b.text : ''))
    .join('');

/**
 * The request as OpenAI messages: `system` first; a user message's tool_result blocks become
 * `tool` messages (after the message's own text, so "the last message is a tool result" holds
 * for a turn that answers calls); an assistant's tool_use blocks become `tool_calls`.
 */
export function anthropicToWire(raw: unknown): WireRequest {
  const body = (raw ?? {}) as AnthropicBody;
  const messages: NonNullable<WireRequest['messages']> = [];
  const system = blockText(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const m of body.messages ?? []) {
    const parts = blocks(m.content);
    if (m.role === 'assistant') {
      const calls = parts
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({ id: String(b.id ?? ''), type: 'function', function: { name: String(b.name ?? ''), arguments: JSON.stringify(b.input ?? {}) } }));
      const thinking = parts.filter((b) => b.type === 'thinking').map((b) => String(b.thinking ?? '')).join('');
      messages.push({
        role: 'assistant',
        content: parts.filter((b) => b.type === 'text').map((b) => String(b.text ?? '')).join('') || null,
        ...(calls.length ? { tool_calls: calls } : {}),
        ...(thinking ? { reasoning_content: thinking } : {}),
      });
      continue;
    }
    const text = parts.filter((b) => b.type === 'text').map((b) => String(b.text ?? '')).join('\n');
    const results = parts.filter((b) => b.type === 'tool_result');
    if (text || !results.length) messages.push({ role: 'user', content: text });
    for (const r of results) messages.push({ role: 'tool', tool_call_id: String(r.tool_use_id ?? ''), content: typeof r.content === 'string' ? r.content : blockText(r.content) });
  }
  return {
    model: body.model,
    messages,
    tools: (body.tools ?? []).map((t) => ({ function: { name: t.name } })),
    stream: body.stream,
    thinking: { type: body.thinking?.type === 'enabled' ? 'enabled' : 'disabled' },
  };
}

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/**
 * Anthropic's split of a prompt: `cache_read` is the prefix repeated from the conversation's
 * previous request; what is new is written to the cache (`cache_creation`, whole 64-token units)
 * when the request marks a cache breakpoint, as Claude Code does; the rest is plain input.
 */
export function anthropicUsage(answer: ScriptedAnswer, prompt: PromptUsage, raw: unknown): AnthropicUsage {
  const marked = JSON.stringify(raw ?? {}).includes('"cache_control"');
  const creation = marked ? Math.floor(prompt.cacheMissTokens / CACHE_UNIT_TOKENS) * CACHE_UNIT_TOKENS : 0;
  const output = `${answer.thinking ?? ''}${answer.text ?? ''}${answer.toolCalls.map((c) => c.name + c.arguments).join('')}`;
  return {
    input_tokens: prompt.cacheMissTokens - creation,
    output_tokens: Math.max(1, estimateTokens(output)),
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: prompt.cacheHitTokens,
  };
}

const PIECE = 16;
const stopReason = (answer: ScriptedAnswer): string => (answer.toolCalls.length ? 'tool_use' : answer.finishReason === 'length' ? 'max_tokens' : 'end_turn');
const parsedInput = (args: string): unknown => {
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
};

/** One SSE frame as Anthropic sends it: the event name, then its data (which repeats the type). */
export function anthropicFrame(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * The events of one streamed answer, in Anthropic's order: message_start (with the prompt's
 * usage), one content block per thinking / text / tool call (tool input as input_json_delta in at
 * least three pieces), message_delta (stop reason, output tokens), message_stop.
 */
export function anthropicFrames(answer: ScriptedAnswer, meta: ResponseMeta, usage: AnthropicUsage): string[] {
  const frames = [
    anthropicFrame('message_start', {
      message: { id: meta.id, type: 'message', role: 'assistant', model: meta.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
  ];
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Array<Record<string, unknown>>): void => {
    frames.push(anthropicFrame('content_block_start', { index, content_block: start }));
    for (const delta of deltas) frames.push(anthropicFrame('content_block_delta', { index, delta }));
    frames.push(anthropicFrame('content_block_stop', { index }));
    index++;
  };
  if (answer.thinking) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...splitText(answer.thinking, PIECE).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: 'scripted-signature' },
    ]);
  }
  if (answer.text) block({ type: 'text', text: '' }, splitText(answer.text, PIECE).map((text) => ({ type: 'text_delta', text })));
  for (const call of answer.toolCalls) {
    const size = Math.max(1, Math.min(PIECE, Math.ceil(call.arguments.length / 3)));
    block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, splitText(call.arguments, size).map((partial_json) => ({ type: 'input_json_delta', partial_json })));
  }
  frames.push(anthropicFrame('message_delta', { delta: { stop_reason: stopReason(answer), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
  frames.push(anthropicFrame('message_stop', {}));
  return frames;
}

/** The non-streaming Messages API response. */
export function anthropicMessage(answer: ScriptedAnswer, meta: ResponseMeta, usage: AnthropicUsage): Record<string, unknown> {
  const content: Array<Record<string, unknown>> = [];
  if (answer.thinking) content.push({ type: 'thinking', thinking: answer.thinking, signature: 'scripted-signature' });
  if (answer.text) content.push({ type: 'text', text: answer.text });
  for (const c of answer.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: parsedInput(c.arguments) });
  return { id: meta.id, type: 'message', role: 'assistant', model: meta.model, content, stop_reason: stopReason(answer), stop_sequence: null, usage };
}

/** Anthropic's error body; `type` is one of its error types (e.g. rate_limit_error). */
export function anthropicError(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[type] ?? type, message } };
}

// The OpenAI-style types the server uses internally, as Anthropic names them.
const ANTHROPIC_ERROR_TYPES: Record<string, string> = {
  server_error: 'api_error',
  not_found: 'not_found_error',
  rate_limit_error: 'rate_limit_error',
  authentication_error: 'authentication_error',
  invalid_request_error: 'invalid_request_error',
};
