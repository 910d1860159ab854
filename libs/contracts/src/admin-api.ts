// The instance admin pages (issue 15): what GET /api/v1/admin/* answer and the web's /admin page
// draws. Only instance admins (User.isInstanceAdmin, the first account) may read them.
import type { TeamBudgetStatus } from './budget';

/** One team of the instance, as the instance page lists it. */
export interface AdminTeam<D = string> {
  id: string;
  name: string;
  slug: string;
  createdAt: D;
  members: number;
  workspaces: number;
  /** Runs created this calendar month (UTC) and what they cost, in dollars. */
  monthRuns: number;
  monthCostUsd: number;
  /** The team's monthly budget against this month's spend. */
  budget: TeamBudgetStatus<D>;
  runningSandboxes: number;
  /** Runs queued or running now (what TEAM_MAX_ACTIVE_RUNS limits). */
  activeRuns: number;
}

export interface AdminTeamList<D = string> {
  /** Calendar month the run counts and costs are for, e.g. 2026-12. */
  month: string;
  items: AdminTeam<D>[];
}

/** A sandbox that is running now. */
export interface AdminSandbox<D = string> {
  workspaceId: string;
  workspaceName: string;
  teamId: string;
  teamName: string;
  state: string;
  driver: string;
  /** When its record last changed: the start that made it running, or a later update of the record. */
  since: D;
  lastUsedAt: D;
}

export interface AdminSandboxList<D = string> {
  items: AdminSandbox<D>[];
}

/** One quota of every team, as the instance sets it. */
export interface InstanceQuota {
  /** The environment variable that sets it, e.g. TEAM_MAX_WORKSPACES. */
  setting: string;
  limit: number;
  description: string;
}

export interface InstanceQuotas {
  workspaces: InstanceQuota;
  runningSandboxes: InstanceQuota;
  activeRuns: InstanceQuota;
}

/** The audit log's paging: the most entries one page returns, and how many when the caller says none. */
export const AUDIT_PAGE = { max: 200, default: 50 } as const;

export interface AuditEntry<D = string> {
  id: string;
  action: string;
  actorUserId: string | null;
  /** The actor's name and email when the account still exists. */
  actorName: string | null;
  actorEmail: string | null;
  actorTokenId: string | null;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  metadata: unknown;
  createdAt: D;
}

export interface AuditPage<D = string> {
  items: AuditEntry<D>[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** Where the api serves Bull Board (the BullMQ queues' own UI), for instance admins. */
export const QUEUE_BOARD_PATH = '/api/admin/queues';
