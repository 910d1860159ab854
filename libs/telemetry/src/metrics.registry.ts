import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// Every metric H exports is declared here, once. The api and the worker are separate processes
// with a scrape endpoint each (GET /api/metrics, and the worker's GET /metrics): a metric is
// registered with the registry of the process that records it, or with both when shared code
// records it in either (event-log appends, sandbox RPCs). Tests run both in one process, and the
// split keeps what each endpoint shows the same as in production.

export const apiRegistry = new Registry();
export const workerRegistry = new Registry();
export type MetricsRole = 'api' | 'worker';
export const registryOf = (role: MetricsRole): Registry => (role === 'api' ? apiRegistry : workerRegistry);

const API = [apiRegistry];
const WORKER = [workerRegistry];
const BOTH = [apiRegistry, workerRegistry];

// Seconds: from a 5 ms route or RPC to a multi-minute run.
const FAST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SLOW_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

/**
 * A gauge whose value is read when scraped. The reader (it needs a queue or a repository) is set by
 * whoever owns that dependency at boot; until then the gauge reports nothing.
 */
type Probe<L extends string> = (gauge: Gauge<L>) => Promise<void> | void;
function probedGauge<L extends string>(config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }) {
  const slot: { probe: Probe<L> | null } = { probe: null };
  const gauge: Gauge<L> = new Gauge<L>({
    ...config,
    async collect() {
      if (!slot.probe) return;
      gauge.reset();
      await slot.probe(gauge);
    },
  });
  return Object.assign(gauge, { setProbe: (p: Probe<L> | null) => void (slot.probe = p) });
}

export const metrics = {
  // --- api ---
  httpRequestDuration: new Histogram({
    name: 'h_http_request_duration_seconds',
    help: 'HTTP requests by route template (as registered, e.g. /api/v1/sessions/:id), method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: FAST_BUCKETS,
    registers: API,
  }),
  socketConnections: new Gauge({ name: 'h_socketio_connections', help: 'Open Socket.IO connections (all gateways share one server)', registers: API }),
  sseConnections: new Gauge({ name: 'h_sse_connections', help: 'Open SSE streams (event streams and h2c task streams)', registers: API }),
  queueJobs: probedGauge({ name: 'h_queue_jobs', help: 'BullMQ jobs per queue and state, read at scrape time', labelNames: ['queue', 'state'] as const, registers: API }),
  queueOldestWait: probedGauge({
    name: 'h_queue_oldest_wait_seconds',
    help: 'Age of the oldest waiting job per queue (0 when none waits), read at scrape time',
    labelNames: ['queue'] as const,
    registers: API,
  }),

  // --- worker ---
  jobWait: new Histogram({
    name: 'h_job_wait_seconds',
    help: 'Time a job waited in its queue before a worker took it',
    labelNames: ['queue', 'job'] as const,
    buckets: FAST_BUCKETS.concat([30, 60, 300]),
    registers: WORKER,
  }),
  jobsProcessed: new Counter({ name: 'h_jobs_processed_total', help: 'Jobs a worker finished, by outcome', labelNames: ['queue', 'job', 'outcome'] as const, registers: WORKER }),
  // Both: the worker ends the runs it executes, the api the queued or waiting ones a user cancels.
  runsFinished: new Counter({ name: 'h_runs_finished_total', help: 'Agent runs that ended, by status (completed, failed, cancelled)', labelNames: ['status'] as const, registers: BOTH }),
  runDuration: new Histogram({
    name: 'h_run_duration_seconds',
    help: 'Agent runs from start (or queueing, if never started) to end, across pauses, by status',
    labelNames: ['status'] as const,
    buckets: SLOW_BUCKETS,
    registers: BOTH,
  }),
  modelRequests: new Counter({
    name: 'h_model_requests_total',
    help: 'Model requests, by provider, model and outcome (ok, error, aborted)',
    labelNames: ['provider', 'model', 'outcome'] as const,
    registers: WORKER,
  }),
  modelRequestDuration: new Histogram({
    name: 'h_model_request_duration_seconds',
    help: 'Model requests from send to the last streamed byte',
    labelNames: ['provider', 'model'] as const,
    buckets: SLOW_BUCKETS.slice(0, 8),
    registers: WORKER,
  }),
  // Per team and model, so the cache-hit ratio is cache_hit / (cache_hit + cache_miss) of these.
  modelTokens: new Counter({
    name: 'h_model_tokens_total',
    help: 'Tokens by team, model and kind (prompt, completion, cache_hit, cache_miss, reasoning)',
    labelNames: ['team', 'model', 'kind'] as const,
    registers: WORKER,
  }),
  modelCost: new Counter({ name: 'h_model_cost_usd_total', help: 'US dollars the model requests cost, by team and model', labelNames: ['team', 'model'] as const, registers: WORKER }),
  toolCalls: new Counter({ name: 'h_tool_calls_total', help: 'Tool calls the agent ran, by tool and outcome (ok, error)', labelNames: ['tool', 'outcome'] as const, registers: WORKER }),
  toolCallDuration: new Histogram({ name: 'h_tool_call_duration_seconds', help: 'Tool calls by tool', labelNames: ['tool'] as const, buckets: FAST_BUCKETS.concat([30, 60, 300]), registers: WORKER }),
  sandboxes: probedGauge({ name: 'h_sandboxes', help: 'Sandboxes by recorded state, read at scrape time', labelNames: ['state'] as const, registers: WORKER }),
  warmPoolClaims: new Counter({
    name: 'h_sandbox_warm_pool_claims_total',
    help: 'Sandbox starts that asked the warm pool, by result (hit: a pre-started container, miss: none left)',
    labelNames: ['result'] as const,
    registers: BOTH,
  }),

  // --- both ---
  sandboxRpcDuration: new Histogram({
    name: 'h_sandbox_rpc_duration_seconds',
    help: 'JSON-RPC calls to sandboxd, by method and outcome',
    labelNames: ['method', 'outcome'] as const,
    buckets: FAST_BUCKETS,
    registers: BOTH,
  }),
  eventAppendDuration: new Histogram({
    name: 'h_event_append_duration_seconds',
    help: 'Event-log appends (one statement per batch), by whether the commit waited for the WAL flush',
    labelNames: ['durable'] as const,
    buckets: FAST_BUCKETS,
    registers: BOTH,
  }),
};

const defaultsStarted = new Set<Registry>();

/**
 * prom-client's process metrics (CPU, memory, GC, event-loop lag from monitorEventLoopDelay as
 * nodejs_eventloop_lag_*) for one role's registry; once per registry.
 */
export function startDefaultMetrics(role: MetricsRole): void {
  const register = registryOf(role);
  if (defaultsStarted.has(register)) return;
  defaultsStarted.add(register);
  collectDefaultMetrics({ register, labels: { process: role } });
}

export function secondsSince(startMs: number): number {
  return (performance.now() - startMs) / 1000;
}
