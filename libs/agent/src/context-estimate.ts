// The seed's context estimate: characters / 4 over everything the request carries.
import type { ChatMessage, ToolDefinition } from '@h/llm';

export const CHARS_PER_TOKEN = 4;

export function messageChars(m: ChatMessage): number {
  let n = (m.content?.length ?? 0) + (m.reasoningContent?.length ?? 0) + (m.toolCallId?.length ?? 0) + (m.name?.length ?? 0);
  for (const c of m.toolCalls ?? []) n += c.id.length + c.name.length + c.arguments.length;
  return n;
}

export function estimateMessagesTokens(messages: readonly ChatMessage[], systemPrompt = ''): number {
  let chars = systemPrompt.length;
  for (const m of messages) chars += messageChars(m);
  return Math.round(chars / CHARS_PER_TOKEN);
}

export function estimateToolsTokens(tools: readonly ToolDefinition[]): number {
  return Math.round(JSON.stringify(tools).length / CHARS_PER_TOKEN);
}
