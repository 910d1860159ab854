import type { ChatMessage, ToolDefinition } from './model-provider';

// Wire shapes of DeepSeek's OpenAI-compatible API, including its reasoning_content extension.
export type WireContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface WireMessage {
  role: string;
  content: string | null | WireContentPart[];
  reasoning_content?: string;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface WireTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * Keeps field order fixed and adds nothing that varies between calls, so the same history
 * always serialises to the same bytes and DeepSeek's prefix cache can hit.
 */
export function toWireMessages(messages: ChatMessage[], options: { reasoning: boolean } = { reasoning: true }): WireMessage[] {
  const out: WireMessage[] = [];
  messages.forEach((m, i) => {
    out.push(toWire(m, options));
    // Images of tool results follow the last tool message of the turn (a user message between the
    // results would break the API's call/result pairing); the same history gives the same bytes.
    if (m.role !== 'tool' || messages[i + 1]?.role === 'tool') return;
    const parts: WireContentPart[] = [];
    for (let j = i; j >= 0 && messages[j].role === 'tool'; j--) {
      const t = messages[j];
      for (const img of [...(t.images ?? [])].reverse()) {
        parts.unshift({ type: 'text', text: `Image of the ${t.name ?? 'tool'} result (call ${t.toolCallId ?? ''}):` }, { type: 'image_url', image_url: { url: `data:${img.mimeType};base64,${img.data}` } });
      }
    }
    if (parts.length > 0) out.push({ role: 'user', content: parts });
  });
  return out;
}

function toWire(m: ChatMessage, options: { reasoning: boolean }): WireMessage {
  if (m.role === 'tool') return { role: 'tool', content: m.content ?? '', tool_call_id: m.toolCallId ?? '' };
  if (m.role === 'user' && m.images?.length) {
    const parts: WireContentPart[] = [{ type: 'text', text: m.content ?? '' }];
    for (const img of m.images) parts.push({ type: 'image_url', image_url: { url: `data:${img.mimeType};base64,${img.data}` } });
    return { role: 'user', content: parts };
  }
  if (m.role !== 'assistant') return { role: m.role, content: m.content ?? '' };
  const wire: WireMessage = { role: 'assistant', content: m.content };
  // DeepSeek answers 400 if an assistant message of a tool-calling turn lacks its reasoning;
  // outside such turns it ignores the field, so sending it whenever we have it is safe there.
  // Plain OpenAI-compatible servers get no vendor field they might refuse.
  if (m.reasoningContent && options.reasoning) wire.reasoning_content = m.reasoningContent;
  if (m.toolCalls && m.toolCalls.length > 0) {
    wire.tool_calls = m.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return wire;
}

export function toWireTools(tools: ToolDefinition[]): WireTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}
