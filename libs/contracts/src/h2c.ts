// The h2c-compatible task API (seed 002_c9f74461e7b97445.txt), served at the root of H's URL by
// libs/h2c: its routes, wire shapes, SSE frames and its own error vocabulary. h2c clients expect
// `{ "error": "<code>" }` (lower snake case) instead of H's `{ error: { code, message } }`; every
// H error code maps onto one h2c code here, so the two registries cannot drift apart.
// Zod-free on purpose, like error-codes.ts.
import type { ErrorCode } from './error-codes';

/** The h2c routes, relative to the root: outside `/api`, answered by the api, never by the web app. */
export const H2C_ROUTE_PATHS = ['health', 'v1/task', 'v1/task/create', 'v1/task/cancel', 'v1/task/permission', 'v1/task/output', 'v1/task/output/stream'] as const;

/** Whether a request path (without query) is one of h2c's: these get h2c's error shape. */
export function isH2cPath(path: string): boolean {
  return path === '/health' || path === '/health/' || path === '/v1/task' || path.startsWith('/v1/task/');
}

export const H2C_PERMISSION_MODES = ['approve', 'bypass'] as const;
export type H2cPermissionMode = (typeof H2C_PERMISSION_MODES)[number];
export const H2C_BEHAVIORS = ['allow', 'deny'] as const;

/** h2c's statuses, plus `queued` (waiting for a slot, `maxConcurrent`) and `cancelled`. */
export const H2C_TASK_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type H2cTaskStatus = (typeof H2C_TASK_STATUSES)[number];

export interface H2cUsage {
  total_cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface H2cTask {
  id: string;
  status: H2cTaskStatus;
  /** The agent's final reply (or its summary); null until the task ends. */
  result: string | null;
  /** 0 done, 1 failed, 130 cancelled; null until the task ends. */
  exitCode: number | null;
  usage: H2cUsage;
  /** H's addition: 1-based place in line while `queued`, else null. */
  queue_position: number | null;
}

export interface H2cTaskOutput {
  retrieval_status: 'success' | 'pending';
  task: H2cTask;
}

export interface H2cCreatedTask {
  task_id: string;
  status: 'created';
}

/** The data-only SSE frames of `/v1/task/output/stream`. */
export type H2cStreamFrame =
  | { type: 'connected'; taskId: string }
  | { type: 'chunk'; text: string }
  | { type: 'permission_request'; task_id: string; request_id: string; tool_name: string; input: unknown; tool_use_id: string }
  | { type: 'tool_progress'; task_id: string; tool_use_id: string; tool_name: string; phase: 'started' | 'finished'; is_error?: boolean; elapsed_time_seconds?: number }
  | { type: 'done'; exitCode: number }
  | { type: 'error'; reason: string };

export const H2C_ERROR_CODES = {
  invalid_request: { status: 400, description: 'The body or query is malformed or breaks a rule (a missing task_id, an unknown permission_mode, bad JSON).' },
  workspace_required: { status: 400, description: 'The API token is not bound to a workspace and `cwd` names none of the team\'s workspaces.' },
  unauthorized: { status: 401, description: 'No valid API token (Bearer, or Basic with the token as password).' },
  forbidden: { status: 403, description: 'The API token\'s creator\'s role does not allow this.' },
  insufficient_scope: { status: 403, description: 'The API token lacks the scope the route needs (`run` to create, cancel and answer; `read` to read); the message names it.' },
  not_found: { status: 404, description: 'No task with that id for this token\'s team.' },
  method_not_allowed: { status: 405, description: 'The route does not take this method.' },
  no_pending_request: { status: 409, description: 'The task has no permission request waiting for an answer.' },
  task_finished: { status: 409, description: 'The task already ended.' },
  conflict: { status: 409, description: 'The request conflicts with the task\'s or the workspace\'s state.' },
  payload_too_large: { status: 413, description: 'The body is larger than BODY_LIMIT.' },
  unsupported_media_type: { status: 415, description: 'The body is not JSON.' },
  unprocessable: { status: 422, description: 'The request is well-formed but cannot be carried out (e.g. an edited input that does not fit the tool).' },
  rate_limited: { status: 429, description: 'A quota or rate limit is reached (active runs, sandboxes, live streams); retry later.' },
  internal_error: { status: 500, description: 'Something went wrong on the server; it was logged.' },
  unavailable: { status: 503, description: 'A dependency of H does not answer.' },
} as const;
export type H2cErrorCode = keyof typeof H2C_ERROR_CODES;

/** h2c's code for an H code, by the H code's HTTP status where no closer one exists. */
const BY_CODE: Partial<Record<ErrorCode, H2cErrorCode>> = {
  VALIDATION_FAILED: 'invalid_request',
  INVALID_JSON: 'invalid_request',
  BAD_REQUEST: 'invalid_request',
  UNAUTHENTICATED: 'unauthorized',
  INSUFFICIENT_SCOPE: 'insufficient_scope',
  NOT_FOUND: 'not_found',
  RUN_FINISHED: 'task_finished',
  ALREADY_DECIDED: 'no_pending_request',
  NO_PENDING_REQUEST: 'no_pending_request',
  WORKSPACE_REQUIRED: 'workspace_required',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  METHOD_NOT_ALLOWED: 'method_not_allowed',
};

export function h2cErrorCode(code: ErrorCode, status: number): H2cErrorCode {
  const direct = BY_CODE[code];
  if (direct) return direct;
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'internal_error';
  if (status === 422) return 'unprocessable';
  return 'invalid_request';
}

/** h2c's error body: `{ "error": "<code>" }`, plus H's sentence under `message` for people reading logs. */
export interface H2cErrorBody {
  error: H2cErrorCode;
  message: string;
}
