import type { ChatMessage, ToolDefinition } from './model-provider';

// Wire shapes of DeepSeek's OpenAI-compatible API, including its reasoning_content extension.
export interface WireMessage {
  role: string;
  content: string | null;
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
export function toWireMessages(messages: ChatMessage[]): WireMessage[] {
  return messages.map((m) => {
    if (m.role === 'tool') return { role: 'tool', content: m.content ?? '', tool_call_id: m.toolCallId ?? '' };
    if (m.role !== 'assistant') return { role: m.role, content: m.content ?? '' };
    const wire: WireMessage = { role: 'assistant', content: m.content };
    // DeepSeek answers 400 if an assistant message of a tool-calling turn lacks its reasoning;
    // outside such turns it ignores the field, so sending it whenever we have it is safe.
    if (m.reasoningContent) wire.reasoning_content = m.reasoningContent;
    if (m.toolCalls && m.toolCalls.length > 0) {
      wire.tool_calls = m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    return wire;
  });
}

export function toWireTools(tools: ToolDefinition[]): WireTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}
