// Sub-agent scripts (scenario `agents`): which request belongs to which sub-agent, and where its
// own conversation starts. A sub-agent's request opens with its profile's system prompt, then
// (prefix cache) earlier tasks of its profile with their reports as plain user/assistant pairs,
// then its task; its own answers follow. So its task is the last user message before the first
// assistant message that called tools, or the last user message when none has yet.
import { messageText, type WireRequest } from './expectations';
import type { AgentScript, Scenario } from './scenario';

type Message = NonNullable<WireRequest['messages']>[number];

const calledTools = (m: Message): boolean => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0;

/** Index of the sub-agent's task message (see above); -1 without a user message. */
export function taskIndex(body: WireRequest): number {
  const messages = body.messages ?? [];
  const firstCall = messages.findIndex(calledTools);
  const end = firstCall === -1 ? messages.length : firstCall;
  for (let i = end - 1; i >= 0; i--) if (messages[i].role === 'user') return i;
  return -1;
}

export function taskText(body: WireRequest): string {
  const i = taskIndex(body);
  return i === -1 ? '' : messageText(body.messages?.[i].content);
}

/** Whether the request is the sub-agent's first: nothing of its own after its task yet. */
export function isFirstAgentTurn(body: WireRequest): boolean {
  const i = taskIndex(body);
  return !(body.messages ?? []).slice(i + 1).some((m) => m.role === 'assistant');
}

function systemText(body: WireRequest): string {
  return (body.messages ?? []).filter((m) => m.role === 'system').map((m) => messageText(m.content)).join('\n');
}

function fits(agent: AgentScript, body: WireRequest): boolean {
  const { systemContains, taskContains } = agent.match;
  if (systemContains !== undefined && !systemText(body).includes(systemContains)) return false;
  if (taskContains !== undefined && !taskText(body).includes(taskContains)) return false;
  return true;
}

/**
 * The sub-agent script answering this request, as a scenario of its own named
 * `<scenario>/<agent>`; undefined when the request is the scenario's main agent's.
 */
export function agentScenario(scenario: Scenario, body: WireRequest): Scenario | undefined {
  const agent = scenario.agents?.find((a) => fits(a, body));
  if (!agent) return undefined;
  return { name: `${scenario.name}/${agent.name}`, turns: agent.turns, ...(scenario.fixture ? { fixture: scenario.fixture } : {}) };
}
