// Every error code H answers with, in one casing (UPPER_SNAKE), with its default HTTP status and
// what it means. `AppException` and the error-body helper of libs/http accept only these (a typo
// is a compile error), OpenAPI's ErrorResponseDto lists them, and the web reads the same type.
// `status: null` marks codes that never answer a request: a run's failure (`run.failed`, the run's
// `error`) or the end of a live stream (`stream_error`).
// Zod-free on purpose: the browser may import this file's values.

export interface ErrorCodeInfo {
  status: number | null;
  description: string;
}

export const ERROR_CODES = {
  // --- 400: the request is wrong ---
  BAD_REQUEST: { status: 400, description: 'The request is malformed.' },
  VALIDATION_FAILED: { status: 400, description: 'A value in the request breaks a rule; the message names the field.' },
  INVALID_JSON: { status: 400, description: 'The request body is not valid JSON.' },
  INVALID_ALLOWED_HOST: { status: 400, description: 'A workspace allowed host is not a host name.' },
  BAD_OUTPUT_ID: { status: 400, description: 'A tool output id is not a positive integer.' },
  BAD_LAST_EVENT_ID: { status: 400, description: 'Last-Event-ID is not an event seq.' },
  SIGNUP_FAILED: { status: 400, description: 'No account could be made with these details (the answer never tells whether the email is in use).' },
  UNKNOWN_MODEL: { status: 400, description: 'The model id is not in the catalog; the message names the known ones.' },
  WORKSPACE_REQUIRED: { status: 400, description: "An h2c task needs a workspace: the API token is bound to none and `cwd` names none of the team's workspaces (by name, id or a path ending in the name)." },
  UNKNOWN_PRESET: { status: 400, description: "No model preset of the workspace's team has that id or name; the message names the team's presets." },
  STEP_LIMIT_TOO_HIGH: { status: 400, description: 'maxSteps is above the instance maximum (AGENT_MAX_STEPS_LIMIT).' },
  PATH_OUTSIDE_WORKSPACE: { status: 400, description: 'A file path leaves the workspace: "..", a leading "/", or a symbolic link that points outside.' },
  IS_DIRECTORY: { status: 400, description: 'The path names a directory where a file is needed (or a directory delete without recursive=true).' },
  NOT_DIRECTORY: { status: 400, description: 'The path names a file where a directory is needed.' },
  INVALID_REF_NAME: { status: 400, description: 'A branch or start point is not a valid git ref name (git check-ref-format rules); the message says which rule.' },
  INVALID_GIT_URL: { status: 400, description: 'A git remote URL is not https://, http:// or ssh (ssh:// or user@host:path), carries a password, or names a refused host.' },
  INVALID_PROVIDER_URL: { status: 400, description: 'A provider base URL is not https (or http to a host the instance allows in PROVIDER_ALLOWED_INTERNAL_HOSTS), carries user info, or names a refused host.' },
  INVALID_PROVIDER_MODELS: { status: 400, description: 'A provider model list repeats an id or gives a maxOutput beyond its context window; the message names the model.' },
  INVALID_MCP_SERVER: { status: 400, description: 'An MCP server configuration does not fit its transport (stdio needs a command, http a url; no url for stdio, no command, args or env for http), or its http URL is not http(s) or carries user info; the message names the field.' },
  INVALID_SSH_KEY: { status: 400, description: 'A deploy key is not an OpenSSH or PEM private key (or is protected by a passphrase).' },
  // --- 401 / 403: who may do it ---
  UNAUTHENTICATED: { status: 401, description: 'No valid session cookie or API token.' },
  INVALID_CREDENTIALS: { status: 401, description: 'Email or password is wrong.' },
  FORBIDDEN: { status: 403, description: 'The caller lacks the role or scope this needs.' },
  CSRF_FAILED: { status: 403, description: 'A cookie-authenticated write without the matching x-csrf-token header.' },
  INSUFFICIENT_SCOPE: { status: 403, description: 'The API token lacks the scope this needs; the message names it (read, run, write, admin).' },
  TOKEN_NOT_ALLOWED: { status: 403, description: 'API tokens cannot use this route.' },
  INSTANCE_ADMIN_ONLY: { status: 403, description: "Only the instance's admins (its first account) may use this: the admin pages and the queue board." },
  TOKEN_WORKSPACE_BOUND: { status: 403, description: 'A workspace-bound API token used a team-wide route.' },
  TOKEN_NOT_WORKSPACE_BOUND: { status: 403, description: 'The MCP endpoint needs an API token bound to one workspace (a team-wide token or a browser session cannot pick the workspace its tools act on).' },
  SIGNUP_DISABLED: { status: 403, description: 'Sign-up is turned off on this instance.' },
  SIGNUP_INVITE_ONLY: { status: 403, description: 'Sign-up on this instance needs an invitation link.' },
  INVITATION_EMAIL_MISMATCH: { status: 403, description: 'The invitation is for another email address.' },
  BAD_ORIGIN: { status: 403, description: 'A cookie-authenticated socket from another origin.' },
  // --- 404 ---
  NOT_FOUND: { status: 404, description: 'The resource does not exist or the caller may not see it.' },
  USER_NOT_FOUND: { status: 404, description: 'No account uses that email.' },
  UNKNOWN_PROVIDER: { status: 404, description: 'The model provider is not supported.' },
  OUTPUT_NOT_FOUND: { status: 404, description: 'No stored tool output with that id in this session.' },
  INVITATION_INVALID: { status: 404, description: 'The invitation expired, was used up or revoked, or is mistyped.' },
  FILE_NOT_FOUND: { status: 404, description: 'No file or directory at that path in the workspace.' },
  GIT_REF_NOT_FOUND: { status: 404, description: 'No branch, tag or commit of that name in the workspace repository.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The route does not take this method.' },
  REQUEST_TIMEOUT: { status: 408, description: 'The request took too long to arrive.' },
  // --- 409: the state does not allow it ---
  CONFLICT: { status: 409, description: 'The change conflicts with the current state.' },
  ALREADY_MEMBER: { status: 409, description: 'That person is already a member of the team.' },
  LAST_OWNER: { status: 409, description: 'A team needs at least one owner.' },
  EMAIL_TAKEN: { status: 409, description: 'An account with this email already exists.' },
  RUN_FINISHED: { status: 409, description: 'The run already ended.' },
  NO_PENDING_REQUEST: { status: 409, description: 'The h2c task has no permission request waiting for an answer.' },
  ALREADY_DECIDED: { status: 409, description: 'The permission request was already answered.' },
  ALREADY_EXISTS: { status: 409, description: 'Something is already at that path in the workspace (create, move).' },
  EDIT_CONFLICT: { status: 409, description: 'The file is not the version If-Match names; error.current and error.yours carry both versions.' },
  NOT_A_REPOSITORY: { status: 409, description: 'The workspace has no git repository at its root: POST …/git/init makes one.' },
  DRIVER_UNSUPPORTED: { status: 409, description: "The workspace's sandbox driver does not offer this (git import and export, archives need Docker exec; the kubernetes driver has none yet)." },
  GIT_CONFLICT: { status: 409, description: "git refused because of the repository's state (local changes a checkout would overwrite, another git command running, a merge in progress); the message is git's, with what to do." },
  GIT_REFUSED: { status: 409, description: "git refused the request (nothing to commit, branch exists, ...); the message is git's." },
  CHANGE_CONFLICT: { status: 409, description: 'The file changed since the agent wrote it: error.details carries the recorded and the current version; nothing was restored.' },
  CHANGE_ALREADY_DECIDED: { status: 409, description: 'The agent\'s change was already rejected or reverted (accepting it again is allowed).' },
  CHECKPOINT_GONE: { status: 409, description: 'The run checkpoint a fork would restore is no longer kept (its workspace volumes were re-created, or its container predates state volumes); fork with restoreFiles: false to keep the files as they are.' },
  RUN_ACTIVE: { status: 409, description: 'A run is queued, running or waiting in this workspace; wait for it or cancel it first.' },
  WORKSPACE_NOT_READY: { status: 409, description: 'The workspace is still being set up (or its setup failed); wait for status ready, or retry the setup.' },
  GIT_NO_REMOTE: { status: 409, description: 'The workspace has no git remote (or no git repository) to fetch from or push to.' },
  GIT_PUSH_REJECTED: { status: 409, description: 'The remote refused the push (not a fast-forward): pull first, then push again.' },
  GIT_MERGE_CONFLICT: { status: 409, description: 'A pull could not merge: resolve the conflicts and commit, or abort the merge.' },
  GIT_LOCAL_CHANGES: { status: 409, description: 'A pull would overwrite uncommitted changes: commit or stash them first.' },
  MEMORY_LIMIT: { status: 409, description: 'The user (in this team) or the workspace keeps MEMORY_LIMITS.perOwner memories already; forget one first.' },
  MCP_SERVER_LIMIT: { status: 409, description: 'The workspace has MCP_SERVERS_PER_WORKSPACE MCP servers already; remove one first.' },
  PRECONDITION_FAILED: { status: 412, description: 'If-Match: * but there is no file to overwrite.' },
  // --- size, type and rate ---
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body is larger than BODY_LIMIT (on /api/mcp: MCP_BODY_MAX_BYTES, as a JSON-RPC error whose data names the limit).' },
  FILE_TOO_LARGE: { status: 413, description: 'An upload over FILE_UPLOAD_MAX_BYTES, or a file read over SANDBOX_READ_MAX_BYTES; the message names the limit.' },
  IDE_STATE_TOO_LARGE: { status: 413, description: 'An IDE state document over IDE_STATE_MAX_BYTES of JSON; the message names the limit.' },
  ARCHIVE_TOO_LARGE: { status: 413, description: 'A workspace archive over WORKSPACE_ARCHIVE_MAX_BYTES; the message names the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The body is not JSON, or in an unsupported encoding.' },
  CHANGE_NOT_RESTORABLE: { status: 422, description: 'The earlier side of the change was not recorded (binary, a directory, or over FILE_CHANGE_MAX_BYTES), so it cannot be restored.' },
  INVALID_TOOL_INPUT: { status: 422, description: 'An edited tool input does not fit the tool\'s parameters; the message names the field.' },
  UNPROCESSABLE: { status: 422, description: 'The request is well-formed but cannot be processed.' },
  GIT_TIMEOUT: { status: 422, description: 'A git command in the sandbox ran longer than SCM_COMMAND_TIMEOUT_MS and was stopped (a hook that waits, a huge repository).' },
  ARCHIVE_INVALID: { status: 422, description: 'The upload is not a readable zip or tar.gz archive.' },
  ARCHIVE_UNSAFE_ENTRY: { status: 422, description: 'An archive entry would land outside the workspace ("..", an absolute path, a link pointing out, a device file).' },
  ARCHIVE_UNPACKED_TOO_LARGE: { status: 422, description: 'The archive unpacks to more than WORKSPACE_ARCHIVE_MAX_UNPACKED_BYTES or WORKSPACE_ARCHIVE_MAX_FILES.' },
  PROVIDER_MODELS_UNAVAILABLE: { status: 422, description: "The provider's GET /models could not be read (refused, unreachable, rejected the key, or not a model list); the message names the provider and the cause." },
  GIT_REMOTE_FAILED: { status: 422, description: 'The git remote refused or could not be reached (authentication, host, repository or branch); the message says what to check.' },
  BUDGET_EXCEEDED: { status: 402, description: "The team's monthly budget is spent: new runs are refused until the month ends or an owner raises it (team page, PUT /teams/:id/budget); also why a run was stopped." },
  PRECONDITION_REQUIRED: { status: 428, description: 'A write over an existing file without If-Match: send the ETag you read, or If-Match: *.' },
  RATE_LIMITED: { status: 429, description: 'Too many attempts; retry after the Retry-After header.' },
  TOO_MANY_STREAMS: { status: 429, description: 'The caller holds STREAMS_PER_PRINCIPAL live streams already.' },
  QUOTA_EXCEEDED: { status: 429, description: 'A team quota (TEAM_MAX_*) is reached: 409 for what the team keeps (workspaces), 429 for what frees up by itself; also a run failure.' },
  HEADERS_TOO_LARGE: { status: 431, description: 'The request headers are too large.' },
  // --- 5xx: our side ---
  INTERNAL: { status: 500, description: 'Something went wrong on the server; it was logged.' },
  WEB_UNAVAILABLE: { status: 502, description: 'The web app behind the api is not answering yet.' },
  NOT_READY: { status: 503, description: 'A dependency (Postgres, Redis) does not answer.' },
  SANDBOX_HOST_UNAVAILABLE: { status: 503, description: "The Docker host the workspace's sandbox was placed on (SANDBOX_DOCKER_HOSTS) does not answer; the message names it." },
  SANDBOX_NO_HOST: { status: 503, description: 'No Docker host can take a new sandbox now (none answers, all are full, or none can give what the workspace needs); the message says which.' },
  SANDBOX_UNAVAILABLE: { status: 503, description: "The workspace sandbox could not be started or reached: the file API's answer, and a run's failure." },
  WORKSPACE_DISK_FULL: { status: 507, description: "The workspace's disk budget (SANDBOX_DISK_MB) is used up." },
  // --- inside an MCP tools/call answer (a JSON-RPC error of HTTP 200) ---
  TOOL_TIMEOUT: { status: null, description: 'An MCP tool call ran longer than MCP_TOOL_TIMEOUT_MS and was stopped (JSON-RPC error -32001).' },
  // --- the end of a live stream (stream_error frames) ---
  SLOW_CONSUMER: { status: null, description: 'The client read too slowly and was cut; resume after lastSeq.' },
  STREAM_STALLED: { status: null, description: 'A replay could not write for STREAM_STALL_TIMEOUT_MS; resume after lastSeq.' },
  STREAM_FAILED: { status: null, description: 'Reading the event log for a stream failed; resubscribe.' },
  // --- why a run failed (run.failed, the run's error) or a non-fatal run error event ---
  MCP_SERVER_UNAVAILABLE: { status: null, description: "An MCP server of the workspace could not be started, reached or listed in time (a non-fatal run error event; the run goes on without its tools); the message names the server and the cause." },
  SESSION_GONE: { status: null, description: 'The session was deleted while its run waited.' },
  WORKSPACE_GONE: { status: null, description: 'The workspace was deleted while the run waited.' },
  PROVIDER_KEY_MISSING: { status: null, description: 'The team has no API key for the model provider.' },
  PROVIDER_GONE: { status: null, description: "The team's custom provider the session uses was deleted; choose another provider for the session." },
  PROVIDER_KEY_UNREADABLE: { status: null, description: 'The stored provider key cannot be decrypted (master key changed?).' },
  PROVIDER_AUTH_FAILED: { status: null, description: 'The model provider rejected the API key.' },
  PROVIDER_BALANCE: { status: null, description: 'The model provider account has insufficient balance.' },
  PROVIDER_RATE_LIMITED: { status: null, description: 'The model provider is rate-limiting the key.' },
  PROVIDER_ERROR: { status: null, description: 'The model provider failed to answer (its side).' },
  PROVIDER_UNREACHABLE: { status: null, description: 'The model provider could not be reached.' },
  PROVIDER_TIMEOUT: { status: null, description: 'The model provider sent nothing for the request timeout.' },
  PROVIDER_BAD_REQUEST: { status: null, description: 'The model provider rejected the request.' },
  CONTEXT_TOO_LONG: { status: null, description: "The conversation is longer than the model's context window." },
  MODEL_FAILED: { status: null, description: 'The model request failed for another reason.' },
  MODEL_STREAM_RESTARTED: { status: null, description: 'The model stream broke and the request is retried (not fatal).' },
  STEP_LIMIT: { status: null, description: 'The run made its maximum number of model requests without finishing.' },
  NO_COMPLETION: { status: null, description: 'The model kept replying in plain text without completing the task.' },
  STEP_PLAN_INVALID: { status: null, description: 'Step-by-step mode: the model wrote no usable plan (empty, vague or too long) within STEP_PLAN_MAX_ATTEMPTS tries; the message gives the last reason.' },
  STEP_ENGINE_UNSUPPORTED: { status: null, description: 'Step-by-step mode runs on H\'s own agent only, not on a claude-code session.' },
  CANCELLED: { status: null, description: 'The run was cancelled.' },
  ENGINE_UNAVAILABLE: { status: null, description: "The session's engine cannot run here (e.g. claude-code needs the Docker sandbox driver and the Claude Code CLI in the sandbox image)." },
  ENGINE_FAILED: { status: null, description: 'The Claude Code CLI ended the turn with an error, exited early or broke its protocol.' },
  ENGINE_INTERRUPTED: { status: null, description: 'The worker running a Claude Code turn stopped mid-turn; the turn is not repeated (its commands may have run): send the message again.' },
  ENGINE_TIMEOUT: { status: null, description: 'A Claude Code turn took longer than CLAUDE_CODE_RUN_MINUTES.' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

/** Codes that answer a request, each with its HTTP status. */
export type HttpErrorCode = { [K in ErrorCode]: (typeof ERROR_CODES)[K]['status'] extends number ? K : never }[ErrorCode];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The one error shape of every refusal: HTTP bodies, socket acks, SSE and socket stream_error frames. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}
