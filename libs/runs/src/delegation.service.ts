import { Injectable, Logger } from '@nestjs/common';
import { bounded, withPrefixPair, type PrefixPair } from '@h/agent';
import { DELEGATION_LIMITS, isAgentProfileName, type AgentProfileName, type DelegationOutcome } from '@h/contracts';
import {
  AgentSessionRepository,
  ChildRunRow,
  EventBusRepository,
  EventRepository,
  PermissionRepository,
  RunRecord,
  RunRepository,
  SubAgentRunRepository,
  ZERO_USAGE,
} from '@h/db';
import { RunDispatcher } from './run-dispatcher.service';

/** A sub-agent to start: its profile, its task, and what it should know beyond the task. */
export interface ChildRequest {
  profile: AgentProfileName;
  task: string;
  /**
   * The parent's user-profile memory subset. Issue 14 builds memory: its worker-side lookup passes
   * the subset here; until then nothing does, and sub-agents get none.
   */
  memory?: string;
  /** Send the profile's earlier task/summary pairs before the task (seed 2b); default true. */
  usePrefix?: boolean;
}

/** What a parked parent's call is waiting on: nothing started yet, sub-agents at work, or all ended. */
export type DelegationState = 'none' | 'active' | 'ended';

/** The session state key of the prefix cache: per profile, the last task/summary pairs (seed 2b). */
export const SUB_AGENT_PREFIX_KEY = 'subAgentPrefix';
type PrefixCache = Partial<Record<AgentProfileName, PrefixPair[]>>;

const ACTIVE = new Set(['queued', 'running', 'waiting_permission', 'waiting_children']);

/**
 * Sub-agents as runs of their own (issue 12): the one mechanism behind delegate_task,
 * delegate_parallel and any other caller that hands work to child runs (step mode). A caller in a
 * running parent's job starts children under a key of its own (the tool call id), the parent parks
 * without a worker; each child runs like any run (admission, approvals, crash recovery); the last
 * one to end puts the parent back in line, and the resumed parent reads the outcomes by that key.
 */
@Injectable()
export class DelegationService {
  private readonly logger = new Logger(DelegationService.name);

  constructor(
    private readonly subAgents: SubAgentRunRepository,
    private readonly runs: RunRepository,
    private readonly sessions: AgentSessionRepository,
    private readonly events: EventRepository,
    private readonly permissions: PermissionRepository,
    private readonly bus: EventBusRepository,
    private readonly dispatcher: RunDispatcher,
  ) {}

  /**
   * Starts the children of `key` and parks the parent (fenced by its lease), in one transaction;
   * each child's task goes with its profile's prefix cache. Called again for a key that has
   * children, it starts nothing and parks the parent again. The parent must stop after this: it no
   * longer holds its lease. When every child has already ended, the parent is requeued at once.
   */
  async startChildren(input: { parent: RunRecord; leaseId: string; key: string; children: ChildRequest[] }): Promise<ChildRunRow[]> {
    const session = await this.sessions.findById(input.parent.sessionId);
    const cache = ((session?.state as Record<string, unknown> | undefined)?.[SUB_AGENT_PREFIX_KEY] ?? {}) as PrefixCache;
    const { children, events } = await this.subAgents.start({
      parent: input.parent,
      leaseId: input.leaseId,
      toolCallId: input.key,
      children: input.children.map((c) => ({
        profile: c.profile,
        task: c.task,
        prefix: c.usePrefix === false ? [] : (cache[c.profile] ?? []).map(({ task, summary }) => ({ task, summary })),
        memory: c.memory,
      })),
    });
    await this.bus.publishEvents(events);
    await this.subAgents.resumeParentIfDone(input.parent.id);
    await this.dispatcher.dispatch(input.parent.teamId);
    return children;
  }

  async state(parentRunId: string, key: string): Promise<DelegationState> {
    const children = await this.subAgents.children(parentRunId, key);
    if (!children.length) return 'none';
    return children.some((c) => ACTIVE.has(c.status)) ? 'active' : 'ended';
  }

  /**
   * The children's outcomes (each report bounded), in the order they were asked for; null when
   * `key` started none. Completed reports join the session's prefix cache, once per child.
   */
  async outcomes(parent: RunRecord, key: string): Promise<DelegationOutcome[] | null> {
    const children = await this.subAgents.children(parent.id, key);
    if (!children.length) return null;
    const logged = await this.events.runOutcomes(children.map((c) => c.id));
    const outcomes = children.map((c): DelegationOutcome => {
      const o = logged.get(c.id);
      const status = c.status === 'completed' || c.status === 'cancelled' ? c.status : 'failed';
      const report = o?.summary ?? o?.reply ?? o?.end?.data.summary ?? o?.end?.data.reply ?? '';
      return {
        runId: c.id,
        profile: isAgentProfileName(c.profile) ? c.profile : 'code-search',
        task: c.task,
        status,
        result: bounded(report, DELEGATION_LIMITS.maxResultChars),
        error: status === 'completed' ? null : (c.error ?? (ACTIVE.has(c.status) ? { code: 'INTERNAL', message: `The sub-agent is still ${c.status}.` } : null)),
      };
    });
    await this.remember(parent.sessionId, outcomes);
    return outcomes;
  }

  /** A child ended (worker or api): when it was its parent's last, the parent goes back in line. */
  async childEnded(child: Pick<RunRecord, 'parentRunId' | 'teamId'>): Promise<void> {
    if (!child.parentRunId) return;
    if (await this.subAgents.resumeParentIfDone(child.parentRunId)) await this.dispatcher.dispatch(child.teamId);
  }

  /**
   * The parent was cancelled: its children stop too. A working child gets the cancel signal (its
   * worker records the end); a queued or parked one ends here.
   */
  async cancelChildren(parent: Pick<RunRecord, 'id' | 'teamId'>, by: string | null): Promise<void> {
    for (const child of await this.subAgents.activeChildren(parent.id)) {
      const run = await this.runs.requestCancel(child.id);
      if (!run) continue;
      if (child.status === 'running') {
        await this.bus.publishCancel(child.id);
        continue;
      }
      await this.permissions.cancelPendingForRun(child.id);
      await this.cancelChildren({ id: child.id, teamId: parent.teamId }, by);
      const events = await this.runs.finishIdle(child.id, child.sessionId, 'cancelled', null, {
        type: 'run.cancelled',
        data: { usage: run.usage ?? ZERO_USAGE, ...(by ? { by } : {}) },
      });
      await this.bus.publishEvents(events);
    }
    await this.dispatcher.dispatch(parent.teamId);
  }

  /** Adds completed reports to the profile's pairs (the last two kept, each bounded): seed 2b. */
  private async remember(sessionId: string, outcomes: DelegationOutcome[]): Promise<void> {
    const session = await this.sessions.findById(sessionId);
    const cache = { ...(((session?.state as Record<string, unknown> | undefined)?.[SUB_AGENT_PREFIX_KEY] ?? {}) as PrefixCache) };
    let changed = false;
    for (const o of outcomes) {
      if (o.status !== 'completed' || !o.result) continue;
      const list = cache[o.profile] ?? [];
      if (list.some((e) => e.runId === o.runId)) continue; // a resumed parent reads them again
      cache[o.profile] = withPrefixPair(list, { runId: o.runId, task: o.task, summary: o.result });
      changed = true;
    }
    if (changed) await this.sessions.mergeState(sessionId, { [SUB_AGENT_PREFIX_KEY]: cache });
    else this.logger.debug({ sessionId }, 'no new sub-agent reports for the prefix cache');
  }
}
