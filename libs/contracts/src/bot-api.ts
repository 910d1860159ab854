// The bot-friendly part of the H API (issue 11 point 2), as it travels: one call makes a session and
// its first run, a long poll waits for the outcome, and a run's result carries its summary, the
// diff of its changes and its usage. The `h` CLI (apps/cli) and CI jobs speak these; the server's
// DTOs (libs/runs bot-run.dto.ts) implement them. Zod-free: the CLI and the browser import it.
import type { AgentChangeSummary } from './changes';
import type { Permission, PermissionMode, Run, RunStatus } from './session-api';

/** Longest a `GET /api/v1/runs/:id?wait=S` holds the request, in seconds (README Limits). */
export const RUN_WAIT_MAX_SECONDS = 60;
/** A run result's `diff` stops at this many characters (`diffTruncated`); `GET …/diff` has it all. */
export const RUN_RESULT_DIFF_MAX_CHARS = 1_000_000;
/** Most runs one `GET /api/v1/workspaces/:id/runs` lists. */
export const WORKSPACE_RUNS_MAX_LIMIT = 100;
/** `clientRunId`: letters, digits and `_ . : -`, 1-100 characters. */
export const CLIENT_RUN_ID_PATTERN = '^[\\w.:-]{1,100}$';

/** POST /api/v1/workspaces/:id/runs */
export interface CreateRunRequest {
  /** The first message of the new session: what the agent should do. */
  prompt: string;
  /** The session's permission mode (default `approve`). */
  mode?: PermissionMode;
  /** A model of the catalog; or `preset`, a team preset's id or name (not both). */
  model?: string;
  preset?: string;
  /** Think before answering (models that toggle it); a preset brings its own. */
  thinking?: boolean;
  /** Run step by step (plan, lock, one sub-agent per step); also the new session's default. */
  stepMode?: boolean;
  /** The session's title; default: the first line of the prompt. */
  title?: string;
  /** Makes the call idempotent: the same id in the same workspace answers the same run. */
  clientRunId?: string;
}

/** A run as bots read it: the run, where it lives, and what came of it. */
export interface RunResult<TDate = string> extends Run<TDate> {
  workspaceId: string;
  /** The session's title. */
  title: string;
  /** What `write_summary` left (null until the run wrote one). */
  summary: string | null;
  /** The agent's last plain answer, when it ended on text. */
  reply: string | null;
  /** The files the run changed, in the order it changed them. */
  changes: AgentChangeSummary[];
  /** Unified diff of those changes (each change against its own before side); may be empty. */
  diff: string;
  /** `diff` was cut at RUN_RESULT_DIFF_MAX_CHARS; GET /api/v1/runs/:id/diff has all of it. */
  diffTruncated: boolean;
  /** The request the run waits on (status `waiting_permission`); answer it at POST /api/v1/permissions/:id. */
  pendingPermission: Permission<TDate> | null;
}

/** A line of `GET /api/v1/workspaces/:id/runs`: the run and its session's title and summary. */
export interface WorkspaceRun<TDate = string> extends Run<TDate> {
  workspaceId: string;
  title: string;
  summary: string | null;
}

export interface WorkspaceRunList<TDate = string> {
  items: WorkspaceRun<TDate>[];
}

/** `?status=` of a workspace's run list: a run status, or `active` / `finished` for either group. */
export const RUN_LIST_FILTERS = ['queued', 'running', 'waiting_permission', 'waiting_children', 'completed', 'failed', 'cancelled', 'active', 'finished'] as const satisfies readonly (RunStatus | 'active' | 'finished')[];
export type RunListFilter = (typeof RUN_LIST_FILTERS)[number];
