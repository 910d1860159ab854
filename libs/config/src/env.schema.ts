import { isIP } from 'node:net';
import { z } from 'zod';
// The zod-free entry: sandboxd and the model server load this schema too.
import { SIGNUP_POLICIES } from '@h/contracts/identity-api';
import { parseDockerHosts } from './docker-hosts';

// Every variable H reads, validated once at boot. `.env.example` documents each of them; a process
// given a bad value refuses to start with a message naming the variable.
// express "trust proxy" values H accepts (a wrong one would crash the api at boot, unnamed).
const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustEntry = (p: string): boolean => {
  const [ip, bits, more] = p.split('/');
  if (more !== undefined || !isIP(ip)) return TRUST_NAMES.has(p);
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(ip) === 4 ? 32 : 128));
};

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const modelCatalogSchema = z.array(
  z
    .object({
      id: z.string().regex(/^[\w.:-]{1,80}$/),
      contextWindow: z.number().int().min(1_000),
      maxOutput: z.number().int().min(1).optional(),
      price: z.object({ cacheHit: z.number().min(0), cacheMiss: z.number().min(0), output: z.number().min(0) }).strict(),
    })
    .strict(),
);

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  H_PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  H_HOST: z.string().default('0.0.0.0'),
  /** Public URL users open; printed at start and used for links. */
  H_PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().default('postgresql://root@127.0.0.1:5432/h'),
  /** Postgres connections per process (api, worker). Each commit waits for a WAL flush; more connections let more commit at once. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix for BullMQ and pub/sub keys so several installations can share one Redis. */
  REDIS_PREFIX: z.string().min(1).default('h'),
  /** Next.js server the api proxies every non-/api path to. Empty disables the proxy. */
  WEB_INTERNAL_URL: z.union([z.string().url(), z.literal('')]).default('http://127.0.0.1:3001'),
  /**
   * Where H keeps files of its own (the master key file when H_MASTER_KEY is not set, and the
   * defaults of SANDBOX_LOCAL_DIR, SANDBOX_DISK_DIR and EGRESS_SOCKET_DIR). The one default.
   */
  H_DATA_DIR: z.string().default('./var/data'),
  /** 32 bytes, base64: encrypts provider keys at rest. When unset a key file is created in H_DATA_DIR. */
  H_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded as base64')
    .optional(),
  /**
   * Which proxies may set X-Forwarded-For (express "trust proxy"): the client address feeds login
   * rate limits and the audit log, so only trust the proxy in front of H. `loopback` suits a reverse
   * proxy on the same host; list its address (e.g. 10.0.0.5) otherwise, or `false` for none.
   */
  TRUST_PROXY: z
    .string()
    .min(1)
    .default('loopback')
    .refine(
      (v) => v === 'false' || v === 'true' || /^\d+$/.test(v) || v.split(',').every((p) => trustEntry(p.trim())),
      'use loopback, an address or subnet (10.0.0.5, 172.18.0.0/16), a comma-separated list, a hop count, or false',
    ),
  /** Mark cookies Secure; on by default in production (serve H over HTTPS there). */
  H_SECURE_COOKIES: bool.optional(),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 14),
  /** Request body limit, e.g. 1mb. */
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/i, 'use a size such as 512kb or 1mb').default('1mb'),
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  /** Failed logins per account from all addresses together within the window (distributed guessing). */
  LOGIN_ACCOUNT_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(30),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /**
   * Who may create an account: open (anyone who reaches H), invite (only with an invitation link)
   * or closed. Unset: open when NODE_ENV=development, invite otherwise. The first account of a fresh
   * instance may always sign up and becomes its admin.
   */
  SIGNUP_POLICY: z.enum(SIGNUP_POLICIES).optional(),
  /** Deprecated alias: true = open, false = closed; SIGNUP_POLICY wins when both are set. */
  SIGNUP_ENABLED: bool.optional(),
  /** Sign-up attempts per client address (IPv6 by /64) within SIGNUP_WINDOW_SECONDS. */
  SIGNUP_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  SIGNUP_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** Invitation links expire after this many days unless the creator picks another expiry (1-30). */
  INVITATION_TTL_DAYS: z.coerce.number().int().min(1).max(30).default(7),
  /** Per-team quotas: workspaces, sandboxes running at once, agent runs queued or running at once. */
  TEAM_MAX_WORKSPACES: z.coerce.number().int().min(1).max(100000).default(20),
  TEAM_MAX_RUNNING_SANDBOXES: z.coerce.number().int().min(1).max(10000).default(5),
  TEAM_MAX_ACTIVE_RUNS: z.coerce.number().int().min(1).max(100000).default(50),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Also write logs to this file (JSON lines). */
  LOG_FILE: z.string().optional(),
  /** Write logs to stdout (turn off when LOG_FILE is enough, e.g. in tests). */
  LOG_STDOUT: bool.default(true),
  /**
   * Bearer token for the Prometheus endpoints (the api's GET /api/metrics, the worker's GET /metrics);
   * unset = both answer 404 (metrics off).
   */
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  /** OTLP/HTTP base URL for traces (spans are POSTed as JSON to <url>/v1/traces); unset = tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** service.name of this process's spans (default h-api / h-worker). */
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Port of the worker's health endpoint on 127.0.0.1 (GET /health: event-loop lag, Redis, active jobs); 0 = off. */
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * Address the worker's health/metrics listener binds: loopback by default; compose binds all of
   * the container's interfaces so Prometheus on the compose network can scrape it (GET /metrics
   * still needs METRICS_TOKEN).
   */
  WORKER_HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
  /** The worker's /health answers 503 while its event loop's p99 delay (recent window) is above this (ms). */
  WORKER_HEALTH_MAX_LAG_MS: z.coerce.number().int().min(1).default(1000),
  /**
   * A worker whose event loop has not run for this long (ms) logs the stall and kills itself (SIGKILL,
   * exit status 137), so the restart policy replaces it; 0 = off.
   */
  WORKER_STALL_EXIT_MS: z.coerce
    .number()
    .int()
    .refine((v) => v === 0 || (v >= 1000 && v <= 3_600_000), 'use 0 (off) or 1000-3600000 ms')
    .default(30000),
  /** Agent runs executing at once per team and per user; more wait in line with their position shown. */
  RUNS_PER_TEAM: z.coerce.number().int().min(1).max(1000).default(4),
  RUNS_PER_USER: z.coerce.number().int().min(1).max(1000).default(2),
  /**
   * Agent runs executing at once per workspace (h2c's `maxConcurrent`): they share one sandbox, so
   * more wait in line (queued, with their position) and start as one ends.
   */
  RUNS_PER_WORKSPACE: z.coerce.number().int().min(1).max(1000).default(3),
  /** How long a worker's hold on a run lasts without renewal; a killed worker's run resumes after it. */
  RUN_LOCK_MS: z.coerce.number().int().min(1000).max(600000).default(15000),
  /** Heartbeat comment interval on SSE streams. */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(1000).max(120000).default(15000),
  /**
   * How long a presence entry (one socket in one workspace) lives without a heartbeat; each api
   * process renews its own sockets' entries every third of it, so a crashed process's users drop out.
   */
  PRESENCE_TTL_MS: z.coerce.number().int().min(1500).max(600000).default(30000),
  /** Live streams (SSE streams plus Socket.IO session subscriptions) one user or API token may hold open at once, per api process. */
  STREAMS_PER_PRINCIPAL: z.coerce.number().int().min(1).max(1000).default(16),
  /**
   * Bytes the api may hold unsent for one stream client (SSE response or Socket.IO connection).
   * Replay waits for the client to drain; live events past this cut a slow client, which resumes by seq.
   */
  STREAM_CLIENT_BUFFER_BYTES: z.coerce.number().int().min(16 * 1024).max(256 * 1024 * 1024).default(4 * 1024 * 1024),
  /** Terminals (PTYs) open at once per workspace, the agent's included; `terminal.open` beyond answers QUOTA_EXCEEDED. */
  TERMINALS_PER_WORKSPACE_MAX: z.coerce.number().int().min(1).max(100).default(8),
  /** Largest `terminal.input` message (UTF-8 bytes of keystrokes or paste); larger ones are refused (PAYLOAD_TOO_LARGE). */
  TERMINAL_INPUT_MAX_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024).default(64 * 1024),
  /** A replay that cannot write for this long (the client stopped reading) ends the stream. */
  STREAM_STALL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3600000).default(60000),
  /** Largest event page (`GET …/events`, and each replay read) in bytes of event data; at least one event is always returned. */
  EVENT_PAGE_MAX_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  /** Largest full tool output kept per call (read back with read_command_output and the outputs route); longer text is cut and marked truncated. */
  TOOL_OUTPUT_MAX_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Largest before/after text recorded per side of an agent's file change; beyond (or binary) the side is recorded without content and cannot be restored by a reject. */
  FILE_CHANGE_MAX_BYTES: z.coerce.number().int().min(1024).max(16 * 1024 * 1024).default(1024 * 1024),
  /** Files larger than this stay out of a run's workspace checkpoint (they are neither saved nor removed by a restore). */
  CHECKPOINT_FILE_MAX_BYTES: z.coerce.number().int().min(1024).max(256 * 1024 * 1024).default(5 * 1024 * 1024),
  /** Longest JSON-RPC line the host accepts from a sandbox; a longer one resets the connection (logged). */
  SANDBOX_RPC_MAX_LINE_BYTES: z.coerce.number().int().min(64 * 1024).max(512 * 1024 * 1024).default(32 * 1024 * 1024),
  /** Largest file the host reads from a sandbox in one call (TOO_LARGE beyond). */
  SANDBOX_READ_MAX_BYTES: z.coerce.number().int().min(1024).max(256 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Largest file upload (POST …/files/upload, raw body or one multipart file); 413 FILE_TOO_LARGE names it. Keep it ≤ SANDBOX_READ_MAX_BYTES so an upload can be read back. */
  FILE_UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).max(20 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Most entries a tree listing returns (`limit` is capped here); the answer says `truncated`. */
  FILE_TREE_MAX_ENTRIES: z.coerce.number().int().min(100).max(100_000).default(10_000),
  /** Longest one git command of the Source Control API may run in the sandbox before it is stopped (422 GIT_TIMEOUT). */
  SCM_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Most output kept from one git command (status beyond it says `truncated`). */
  SCM_OUTPUT_MAX_BYTES: z.coerce.number().int().min(64 * 1024).max(64 * 1024 * 1024).default(8 * 1024 * 1024),
  /** Largest side of a diff shown as text (`tooLarge` beyond), and the longest patch (cut, `patchTruncated`). */
  SCM_DIFF_MAX_BYTES: z.coerce.number().int().min(1024).max(16 * 1024 * 1024).default(2 * 1024 * 1024),
  /** Largest request body of the MCP endpoint (POST /api/mcp), in bytes; beyond it a JSON-RPC error (413, data.code PAYLOAD_TOO_LARGE) names the limit. */
  MCP_BODY_MAX_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(4 * 1024 * 1024),
  /** MCP requests one API token may send per minute (every api replica counts in Redis); beyond it 429 with a JSON-RPC error and Retry-After. */
  MCP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(300),
  /** Longest one MCP tool call may run (run_command's own timeout is capped here); beyond it the call is stopped and answered with JSON-RPC error -32001 TOOL_TIMEOUT. */
  MCP_TOOL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** Largest IDE state document (layout, tabs, expanded folders) per user and workspace, as JSON bytes; 413 IDE_STATE_TOO_LARGE beyond. */
  IDE_STATE_MAX_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024).default(64 * 1024),
  /** docker (one container per workspace), kubernetes (one pod + PVC per workspace) or local (UNSAFE: no isolation; needs H_ALLOW_LOCAL_SANDBOX). */
  SANDBOX_DRIVER: z.enum(['docker', 'kubernetes', 'local']).default('docker'),
  /** Namespace of the kubernetes driver's sandbox pods, PVCs and NetworkPolicies (the worker's service account needs the chart's Role there). */
  K8S_NAMESPACE: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).default('h-sandboxes'),
  /** Kubeconfig file of the kubernetes driver; unset: ~/.kube/config, else in-cluster (the pod's service account). */
  KUBECONFIG: z.string().optional(),
  /** StorageClass of workspace PVCs (kubernetes driver); unset: the cluster's default. */
  K8S_STORAGE_CLASS: z.string().optional(),
  /** The egress proxy's Service as `name` or `name.namespace` (kubernetes driver): network-enabled sandbox pods may reach only it, on port 3128. */
  K8S_EGRESS_PROXY_SERVICE: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)?$/).optional(),
  H_ALLOW_LOCAL_SANDBOX: bool.default(false),
  /** Directory of the local driver's workspaces; default <H_DATA_DIR>/workspaces. */
  SANDBOX_LOCAL_DIR: z.string().optional(),
  /** Image tag of the sandbox; unset: built offline from infra/sandbox on first use and cached. */
  SANDBOX_IMAGE: z.string().optional(),
  /** Pre-started containers kept ready for new workspaces. */
  SANDBOX_POOL_SIZE: z.coerce.number().int().min(0).max(50).default(1),
  /** Stop a sandbox after this many idle minutes (0 = never); it restarts on next use. */
  SANDBOX_IDLE_MINUTES: z.coerce.number().int().min(0).default(15),
  SANDBOX_CPUS: z.coerce.number().min(0.1).max(64).default(1),
  SANDBOX_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  SANDBOX_PIDS: z.coerce.number().int().min(16).default(512),
  /** Container and volume name prefix, so several installations can share one Docker engine. */
  SANDBOX_NAME_PREFIX: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/).default('h-'),
  /**
   * Disk budget of each workspace's /workspace in MiB (0 = none): an ext4 image of this size per
   * workspace, loop-mounted by the worker (needs root; without it the worker logs that budgets are
   * off and uses plain Docker volumes). Applies to volumes created from now on.
   */
  SANDBOX_DISK_MB: z.coerce.number().int().min(0).max(1024 * 1024).default(2048),
  /** Where the workspace disk images live (sparse files) and are mounted; default <H_DATA_DIR>/sandbox-disks. */
  SANDBOX_DISK_DIR: z.string().optional(),
  /** OCI runtime for sandboxes, e.g. runsc (gVisor); unset: Docker's default. Falls back with a log line when it does not work. */
  SANDBOX_RUNTIME: z.string().regex(/^[A-Za-z0-9_.-]+$/).optional(),
  /**
   * How a run's events are committed. `barriers` (default): a batch that precedes a call that
   * changes something, and the run's end, wait for the WAL flush; the batches between them do not
   * (a Postgres crash, not a worker's, can lose up to a second of them; clients may have seen
   * them). `every-batch`: every batch waits for the flush (slower per step under disk load).
   */
  EVENT_COMMIT: z.enum(['barriers', 'every-batch']).default('barriers'),
  /**
   * Host dir under which each sandbox's daemon socket dir is bind-mounted, so the worker and the api
   * talk to sandboxd over a unix socket instead of a `docker exec` relay through the engine (about
   * half the time per sandbox call, bench/runs). Needs this process's filesystem to be the Docker
   * host's. Unset: <H_DATA_DIR>/sandbox-sockets when the engine is local (DOCKER_HOST unset and the
   * engine's host name is this process's), else off. `off`: always the exec relay.
   */
  SANDBOX_SOCKET_DIR: z.string().optional(),
  /** Host dir of the egress proxy's per-workspace sockets (mounted into network-enabled sandboxes); default <H_DATA_DIR>/egress. */
  EGRESS_SOCKET_DIR: z.string().optional(),
  /** Destination ports network-enabled sandboxes may reach through the egress proxy. */
  EGRESS_PORTS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'a comma-separated list of ports, e.g. 80,443')
    .default('80,443')
    .transform((v) => v.split(',').map(Number)),
  EGRESS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120000).default(10000),
  /** A proxied connection without traffic for this long is closed. */
  EGRESS_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3600000).default(120000),
  /** Proxied connections open at once per workspace; more are answered 429. */
  EGRESS_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1000).default(32),
  /** Days the per-workspace egress connection log is kept. */
  EGRESS_LOG_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /** An external MCP server of a workspace (libs/mcp client/) must start and answer `initialize` within this. */
  MCP_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(500).max(120000).default(15000),
  /** Its `tools/list` must answer within this. */
  MCP_LIST_TIMEOUT_MS: z.coerce.number().int().min(500).max(120000).default(10000),
  /** One `tools/call` of the agent is stopped (an error result) after this. */
  MCP_CALL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3600000).default(120000),
  /** Largest message an MCP server may send (a stdio line, an HTTP body); beyond it the server is cut off. */
  MCP_MAX_MESSAGE_BYTES: z.coerce.number().int().min(65536).max(256 * 1024 * 1024).default(16 * 1024 * 1024),
  /** Lowest team role that may turn a workspace's network access on and edit its allowed hosts. */
  NETWORK_ENABLE_MIN_ROLE: z.enum(['owner', 'admin', 'member']).default('admin'),
  /** Largest archive (zip or tar.gz) a workspace may be created from (413 ARCHIVE_TOO_LARGE beyond). */
  WORKSPACE_ARCHIVE_MAX_BYTES: z.coerce.number().int().min(1024).max(2 * 1024 * 1024 * 1024).default(100 * 1024 * 1024),
  /** Most bytes an uploaded archive may unpack to (422 ARCHIVE_TOO_LARGE beyond: zip bombs stop here). */
  WORKSPACE_ARCHIVE_MAX_UNPACKED_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024 * 1024).default(1024 * 1024 * 1024),
  /** Most entries an uploaded archive may hold (422 ARCHIVE_TOO_LARGE beyond). */
  WORKSPACE_ARCHIVE_MAX_FILES: z.coerce.number().int().min(10).max(10_000_000).default(100_000),
  /** How long one host-side git clone, fetch or push may take before it is stopped. */
  GIT_REMOTE_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(24 * 3600).default(600),
  /** Let workspaces clone from git hosts on loopback or private addresses (a git server inside your network). Off: refused, so a URL cannot reach H's own services. */
  GIT_REMOTE_ALLOW_PRIVATE_HOSTS: bool.default(false),
  /** Tests only, refused in production: the egress proxy lets sandboxes reach loopback servers. */
  H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS: bool.default(false),
  /**
   * The Docker engine the worker drives sandboxes through: unix:///path or tcp://host:port. Unset:
   * the local engine's socket. In compose it is H's socket proxy (apps/docker-proxy).
   */
  DOCKER_HOST: z
    .string()
    .regex(/^(unix:\/\/\/\S+|tcp:\/\/[^/\s]+)$/, 'use unix:///path/to/docker.sock or tcp://host:port')
    .optional(),
  /**
   * Several Docker engines for sandboxes: `name=endpoint[;max=N]` entries, comma-separated (e.g.
   * `a=unix:///var/run/docker.sock,b=tcp://10.0.0.7:2375;max=20`). Each workspace's sandbox is
   * placed once on the healthy host with the fewest, recorded (Sandbox.host), and stays there.
   * Unset: the one engine of DOCKER_HOST, named `local`. Every host needs SANDBOX_IMAGE.
   */
  SANDBOX_DOCKER_HOSTS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      try {
        return parseDockerHosts(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
        return z.NEVER;
      }
    }),
  /** apps/docker-proxy: the unix socket it listens on, the engine socket it forwards to, who owns its socket (uid:gid). */
  DOCKER_PROXY_SOCKET: z.string().min(1).default('/run/h-docker/docker.sock'),
  DOCKER_PROXY_UPSTREAM: z.string().min(1).default('/var/run/docker.sock'),
  DOCKER_PROXY_SOCKET_OWNER: z.string().regex(/^\d+:\d+$/, 'use uid:gid, e.g. 1000:1000').optional(),
  /** Host directories (comma-separated, absolute) sandboxes may bind-mount from through the proxy; empty: none. */
  DOCKER_PROXY_BIND_DIRS: z
    .string()
    .regex(/^(\/[^,\s]*)(,\/[^,\s]*)*$/, 'use absolute directories separated by commas')
    .optional()
    .transform((v) => (v ? v.split(',') : [])),
  DEEPSEEK_BASE_URL: z.string().url().default('https://api.deepseek.com'),
  /**
   * Hosts a team's own provider may use although they are internal: plain http, or loopback /
   * private addresses (a vLLM or Ollama next to H). Comma-separated host names (`*.corp.example`
   * for every name below it) or IP addresses; empty: only https to public addresses.
   */
  PROVIDER_ALLOWED_INTERNAL_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')).filter(Boolean) : []))
    .refine((hosts) => hosts.every((h) => /^(\*\.)?[a-z0-9_.-]+$|^[0-9a-f:.]+$/.test(h) && h.length <= 253), {
      message: 'use host names (or *.domain) and IP addresses separated by commas, e.g. 127.0.0.1,vllm.internal',
    }),
  DEFAULT_MODEL: z.string().default('deepseek-v4-flash'),
  /**
   * The Anthropic(-compatible) endpoint the model gateway forwards Claude Code's requests to, with
   * the team's Anthropic key added on the host (the key never enters a sandbox).
   */
  ANTHROPIC_BASE_URL: z.string().url().default('https://api.anthropic.com'),
  /** The model a claude-code session asks for unless it names one. */
  CLAUDE_CODE_MODEL: z.string().regex(/^[\w.:-]{1,80}$/).default('claude-sonnet-4-5'),
  /** Host dir of the model gateway's run sockets (mounted read-only into every sandbox); default <H_DATA_DIR>/model-gateway; `off`: no mount, no claude-code runs. */
  MODEL_GATEWAY_SOCKET_DIR: z.string().optional(),
  /** Longest a claude-code run may take before it is stopped (minutes, waiting for approvals included). */
  CLAUDE_CODE_RUN_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(60),
  /** Model requests one agent run may make (over all its segments), unless its session sets fewer or more. */
  AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(10_000).default(50),
  /** The most a session may set as its own step limit (maxSteps); higher is refused with 400. */
  AGENT_MAX_STEPS_LIMIT: z.coerce.number().int().min(1).max(10_000).default(200),
  /**
   * Bytes of AGENTS.md / CLAUDE.md text one run may add to what the model sees (root first, then
   * the directories it works in); 0 turns workspace instructions off. Beyond it a file is cut and
   * the model is told how to read the rest.
   */
  AGENT_INSTRUCTIONS_MAX_BYTES: z.coerce.number().int().min(0).max(1024 * 1024).default(32 * 1024),
  /** The workspace's file tree on a session's first run, then patches (`off`: none). */
  AGENT_FILE_TREE: z.enum(['on', 'off']).default('on'),
  /**
   * A model of the run's provider that reads images and describes browser screenshots for agents
   * whose model does not see them (frontend-specialist's browser_screenshot). Unset: the tool says
   * no vision model is configured. The browser sub-agent gets the image itself.
   */
  BROWSER_VISION_MODEL: z.string().min(1).max(200).optional(),
  /**
   * Bytes of remembered facts (libs/memory) one run is told after the cached prefix: the entries
   * most relevant to the person's message (top 6), within this budget; 0 turns injection off.
   */
  AGENT_MEMORY_MAX_BYTES: z.coerce.number().int().min(0).max(64 * 1024).default(4000),
  /** Whether explicit preferences in a message ("I prefer …", "from now on use …") are remembered without a tool call. */
  AGENT_MEMORY_AUTO_CAPTURE: z.enum(['on', 'off']).default('on'),
  /**
   * An embeddings model of the run's provider (POST /embeddings; e.g. text-embedding-3-small on
   * OpenAI, nomic-embed-text on Ollama) that adds meaning to memory ranking: entries close to the
   * person's message rank up even without shared words. Unset (DeepSeek has no embeddings API):
   * keywords and Postgres full-text rank only. A provider that refuses it costs the ranking that
   * term, never the run.
   */
  MEMORY_EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  /**
   * Models beyond the built-in catalog (a custom OpenAI-compatible host): a JSON array of
   * { "id", "contextWindow", "maxOutput"?, "price": { "cacheHit", "cacheMiss", "output" } } (USD per 1M tokens).
   */
  MODEL_CATALOG: z
    .string()
    .default('[]')
    .transform((text, ctx) => {
      try {
        return modelCatalogSchema.parse(JSON.parse(text));
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `MODEL_CATALOG must be a JSON array of models: ${(err as Error).message.slice(0, 300)}` });
        return z.NEVER;
      }
    }),
});

export type Env = z.infer<typeof envSchema>;
export type ConfiguredModel = z.infer<typeof modelCatalogSchema>[number];

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// Variables whose empty value means "off" (as .env.example documents), not "use the default".
const EMPTY_MEANS_OFF = new Set(['WEB_INTERNAL_URL']);

// Empty strings mean "unset" so that `FOO=` in an env file falls back to the default.
function cleaned(source: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter((e): e is [string, string] => e[1] !== undefined && (e[1] !== '' || EMPTY_MEANS_OFF.has(e[0]))),
  );
}

export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const result = envSchema.safeParse(cleaned(source));
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  if (result.data.H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS && result.data.NODE_ENV === 'production') {
    throw new ConfigError(['H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS: must not be set in production (it lets sandboxes reach this host)']);
  }
  return result.data;
}

/**
 * One variable, parsed with its schema entry (same default and checks as parseEnv), for the rare
 * reader that runs before the config service exists: e.g. BullMQ's lock duration, fixed by a class
 * decorator at import time.
 */
export function envValue<K extends keyof Env>(name: K, source: Readonly<Record<string, string | undefined>> = process.env): Env[K] {
  const result = envSchema.shape[name].safeParse(cleaned(source)[name]);
  if (!result.success) throw new ConfigError(result.error.issues.map((i) => `${name}: ${i.message}`));
  return result.data as Env[K];
}
