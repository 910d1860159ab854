// What each sub-agent profile is offered and told (the allowlists themselves are in
// libs/contracts agent-profiles.ts, the one table saying who has which tools). The parent agent's
// tool list is here too: the core tools without any browser tool, then the two delegate tools, in
// a fixed order (tool definitions open every request: their bytes are the cached prefix).
import { AGENT_PROFILES, DELEGATION_LIMITS, PARENT_EXCLUDED_TOOLS, type AgentProfileName } from '@h/contracts';
import { BROWSER_AGENT_TOOLS, CORE_TOOLS, DELEGATE_TOOLS, MEMORY_TOOLS, SESSION_QUERY_TOOLS, ToolRegistry } from '@h/tools';

/**
 * The main agent's tools: every core tool a parent may have, then delegate_task, delegate_parallel,
 * then remember, recall, forget (the seed's profiles give no sub-agent the memory tools: they get
 * the user-profile subset with their task instead), then the five session-query tools (seed dsh:
 * every main agent has them; sub-agents do not).
 */
export function parentToolRegistry(): ToolRegistry {
  return new ToolRegistry([...CORE_TOOLS.filter((t) => !PARENT_EXCLUDED_TOOLS.has(t.name)), ...DELEGATE_TOOLS, ...MEMORY_TOOLS, ...SESSION_QUERY_TOOLS]);
}

/**
 * A profile's tools: exactly its allowlist, of the tools H has; the browser tools come after the core ones, in BROWSER_TOOLS order. A sub-agent never delegates further.
 */
export function profileToolRegistry(profile: AgentProfileName): ToolRegistry {
  const allowed = new Set(AGENT_PROFILES[profile].tools);
  return new ToolRegistry([...CORE_TOOLS, ...BROWSER_AGENT_TOOLS].filter((t) => allowed.has(t.name)));
}

/** The opening of a sub-agent's system prompt: who it is and how it reports (the same bytes every time). */
export function profilePrompt(profile: AgentProfileName): string {
  const p = AGENT_PROFILES[profile];
  return [
    `You are H's ${p.label}, a sub-agent. ${p.description}`,
    'Another agent delegated one task to you; you see only that task (and, when given, earlier tasks of your kind with their reports). Do only that task.',
    p.readOnly ? 'You never change files: you only have tools that read.' : 'Change only what the task needs, and verify it.',
    'When done, reply in plain text with your report to that agent: findings and results, with file paths and line numbers where they matter, concise (it is cut after 4,000 characters). That reply ends your work.',
  ].join('\n');
}

/** One pair of a profile's prefix cache: a finished delegation's task and report (seed 2b). */
export interface PrefixPair {
  /** The sub-agent run it came from: a resumed parent reading outcomes again adds nothing. */
  runId: string;
  task: string;
  summary: string;
}

/**
 * The profile's pairs after a delegation completed: appended (task ≤ 500, report ≤ 1,000
 * characters), the last two kept. Never file contents: only what the parent was told.
 */
export function withPrefixPair(pairs: readonly PrefixPair[], next: PrefixPair): PrefixPair[] {
  if (pairs.some((p) => p.runId === next.runId)) return [...pairs];
  const entry = { runId: next.runId, task: bounded(next.task, DELEGATION_LIMITS.prefixTaskChars), summary: bounded(next.summary, DELEGATION_LIMITS.prefixSummaryChars) };
  return [...pairs, entry].slice(-DELEGATION_LIMITS.prefixPairs);
}

/** The text, or its head with a note of what was cut (what the parent and the prefix keep stays bounded). */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `\n[… ${text.length - max} more characters cut]`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}
