import { z } from 'zod';

// Every variable H reads, validated once at boot. `.env.example` documents each of them; a process
// given a bad value refuses to start with a message naming the variable.
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
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix for BullMQ and pub/sub keys so several installations can share one Redis. */
  REDIS_PREFIX: z.string().min(1).default('h'),
  /** Next.js server the api proxies every non-/api path to. Empty disables the proxy. */
  WEB_INTERNAL_URL: z.union([z.string().url(), z.literal('')]).default('http://127.0.0.1:3001'),
  /** Where H keeps files of its own (the master key file when H_MASTER_KEY is not set). */
  H_DATA_DIR: z.string().default('./var'),
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
  TRUST_PROXY: z.string().min(1).default('loopback'),
  /** Mark cookies Secure; on by default in production (serve H over HTTPS there). */
  H_SECURE_COOKIES: bool.optional(),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 14),
  /** Request body limit, e.g. 1mb. */
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/i, 'use a size such as 512kb or 1mb').default('1mb'),
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  SIGNUP_ENABLED: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Also write logs to this file (JSON lines). */
  LOG_FILE: z.string().optional(),
  /** Write logs to stdout (turn off when LOG_FILE is enough, e.g. in tests). */
  LOG_STDOUT: bool.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Agent runs executing at once per team and per user; more wait in line with their position shown. */
  RUNS_PER_TEAM: z.coerce.number().int().min(1).max(1000).default(4),
  RUNS_PER_USER: z.coerce.number().int().min(1).max(1000).default(2),
  /** How long a worker's hold on a run lasts without renewal; a killed worker's run resumes after it. */
  RUN_LOCK_MS: z.coerce.number().int().min(1000).max(600000).default(15000),
  /** Heartbeat comment interval on SSE streams. */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(1000).max(120000).default(15000),
  /** docker (one container per workspace) or local (UNSAFE: no isolation; needs H_ALLOW_LOCAL_SANDBOX). */
  SANDBOX_DRIVER: z.enum(['docker', 'local']).default('docker'),
  H_ALLOW_LOCAL_SANDBOX: bool.default(false),
  /** Directory of the local driver's workspaces. */
  SANDBOX_LOCAL_DIR: z.string().default('./var/workspaces'),
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
  DEEPSEEK_BASE_URL: z.string().url().default('https://api.deepseek.com'),
  DEFAULT_MODEL: z.string().default('deepseek-v4-flash'),
  /** Model requests one agent run may make (over all its segments), unless its session sets fewer or more. */
  AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(10_000).default(50),
  /** The most a session may set as its own step limit (maxSteps); higher is refused with 400. */
  AGENT_MAX_STEPS_LIMIT: z.coerce.number().int().min(1).max(10_000).default(200),
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

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset" so that `FOO=` in an env file falls back to the default.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([k, v]) => v !== undefined && (v !== '' || EMPTY_MEANS_OFF.has(k))),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  return result.data;
}
