import { parentToolRegistry, profilePrompt, profileToolRegistry, type WorkspaceContextOptions } from '@h/agent';
import type { Env } from '@h/config';
import { AGENT_PROFILE_NAMES, isAgentProfileName, type AgentProfileName } from '@h/contracts';
import type { EventEnvelope, RunRecord } from '@h/db';
import type { ToolRegistry } from '@h/tools';
import { orderForRebuild } from './event-order';

/** Built once: the same frozen definitions (and bytes) go out on every request of every run. */
const PARENT_TOOLS = parentToolRegistry();
const PROFILE_TOOLS = new Map<AgentProfileName, ToolRegistry>(AGENT_PROFILE_NAMES.map((p) => [p, profileToolRegistry(p)]));

export interface RunShape {
  /** The events the run's conversation is rebuilt from, in order. */
  log: EventEnvelope[];
  tools: ToolRegistry;
  /** A sub-agent's profile instructions (see AgentRunOptions.profilePrompt). */
  profilePrompt?: string;
  /** Whether the run may delegate (a sub-agent never delegates further). */
  delegates: boolean;
}

/**
 * What a run sees of its session's log and which tools it has. A sub-agent's conversation is its
 * own events only (its task message, with its profile's prefix, opens them); every other run's
 * leaves the sub-agents' events out, which live in the same session log under their own run ids.
 */
export function runShape(run: RunRecord, stored: EventEnvelope[], childRunIds: ReadonlySet<string>): RunShape {
  if (run.parentRunId) {
    const profile = isAgentProfileName(run.profile ?? '') ? (run.profile as AgentProfileName) : null;
    if (!profile) throw new Error(`sub-agent run ${run.id} has an unknown profile "${run.profile}"`);
    return {
      log: stored.filter((e) => e.runId === run.id),
      tools: PROFILE_TOOLS.get(profile) as ToolRegistry,
      profilePrompt: profilePrompt(profile),
      delegates: false,
    };
  }
  return { log: orderForRebuild(stored.filter((e) => !e.runId || !childRunIds.has(e.runId)), run.id), tools: PARENT_TOOLS, delegates: true };
}

/**
 * The workspace context a run is told (AGENT_INSTRUCTIONS_MAX_BYTES, AGENT_FILE_TREE): a sub-agent
 * gets the instructions, not the tree (its task says where to look, and every delegation would pay
 * for the whole tree again).
 */
export function workspaceContextOptions(env: Pick<Env, 'AGENT_INSTRUCTIONS_MAX_BYTES' | 'AGENT_FILE_TREE'>, subAgent: boolean): WorkspaceContextOptions {
  return {
    instructions: env.AGENT_INSTRUCTIONS_MAX_BYTES > 0,
    instructionsMaxBytes: env.AGENT_INSTRUCTIONS_MAX_BYTES,
    tree: !subAgent && env.AGENT_FILE_TREE === 'on',
  };
}
