import type { ScriptedAnswer } from './chat-chunks';
import type { ConversationState } from './conversation';
import { messageText, type WireRequest } from './expectations';
import type { ScenarioTurn } from './scenario';

export const DEMO_LABEL = '[scripted demo model]';

export function scriptedAnswer(turn: ScenarioTurn, state: ConversationState, body: WireRequest): ScriptedAnswer {
  const toolCalls = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${state.cursor}_${i}_${state.tag}`,
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
  return {
    // Thinking is left out only when the request turned thinking mode off, as the real API does.
    thinking: thinkingDisabled(body) ? undefined : turn.thinking,
    text: turn.text,
    toolCalls,
    finishReason: turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
  };
}

export function demoAnswer(body: WireRequest): ScriptedAnswer {
  const lastUser = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  // What the user typed, without the context H appends after it ("\n\n[Workspace file tree] …").
  const said = messageText(lastUser?.content).split(/\n\n\[[A-Z][A-Za-z ]*\]/)[0].trim().replace(/\s+/g, ' ');
  const quote = said.length > 200 ? `${said.slice(0, 200)}…` : said;
  return {
    text:
      `${DEMO_LABEL} This is H's offline demo model, not a real AI: it cannot read or change your code. ` +
      `You said: "${quote}". To work with a real model, remove DEEPSEEK_BASE_URL from H's .env, restart H, ` +
      `and set the team's key under Settings → DeepSeek API key.`,
    toolCalls: [],
    finishReason: 'stop',
  };
}

export function thinkingDisabled(body: WireRequest): boolean {
  return body.model === 'deepseek-chat' || body.thinking?.type === 'disabled';
}
