import { z } from 'zod';

// The one list of queues and jobs. Producers and the worker both import it, and the worker checks
// at boot that every job below has exactly one handler (immich's job.repository pattern).
export enum QueueName {
  Workspace = 'workspace',
  Agent = 'agent',
}

export enum JobName {
  WorkspaceSetup = 'workspace.setup',
  /** Removes a deleted workspace's sandbox container and volume. */
  WorkspaceTeardown = 'workspace.teardown',
  /** Runs (or resumes) one agent run; the run's state lives in Postgres, the job only points at it. */
  AgentRun = 'agent.run',
  /** Connects to one external MCP server of a workspace and records its status (libs/mcp client/, "Check now"). */
  McpServerCheck = 'mcp.check',
  /** Merges near-duplicate memories of one user and one workspace (libs/memory), after each run. */
  MemoryMaintenance = 'memory.maintenance',
}

export const jobPayloadSchemas = {
  [JobName.WorkspaceSetup]: z.object({ workspaceId: z.string().uuid() }),
  [JobName.WorkspaceTeardown]: z.object({ workspaceId: z.string().uuid(), record: z.record(z.string(), z.unknown()).nullable() }),
  // sessionId: the run's session when the enqueuer knew it, so the worker reads the session, its
  // workspace and provider beside the claim instead of after it (jobs queued without it still run).
  [JobName.AgentRun]: z.object({ runId: z.string().uuid(), sessionId: z.string().uuid().optional() }),
  [JobName.McpServerCheck]: z.object({ workspaceId: z.string().uuid(), serverId: z.string().uuid() }),
  [JobName.MemoryMaintenance]: z.object({ teamId: z.string().uuid(), userId: z.string().uuid(), workspaceId: z.string().uuid() }),
} satisfies Record<JobName, z.ZodTypeAny>;

export type JobPayload<N extends JobName> = z.infer<(typeof jobPayloadSchemas)[N]>;

export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JobName.WorkspaceSetup]: QueueName.Workspace,
  [JobName.WorkspaceTeardown]: QueueName.Workspace,
  [JobName.AgentRun]: QueueName.Agent,
  [JobName.McpServerCheck]: QueueName.Workspace,
  [JobName.MemoryMaintenance]: QueueName.Workspace,
};

export interface JobDefaults {
  attempts: number;
  backoffMs: number;
  /** Keep finished jobs in Redis for inspection; off when Postgres holds the history. */
  keepFinished: boolean;
}

export const JOB_DEFAULTS: Record<JobName, JobDefaults> = {
  [JobName.WorkspaceSetup]: { attempts: 5, backoffMs: 1000, keepFinished: true },
  [JobName.WorkspaceTeardown]: { attempts: 5, backoffMs: 2000, keepFinished: true },
  // A run that throws is already recorded as failed; retries come from stalled-job recovery. Its
  // job id is reused when the run resumes after an approval, so finished jobs are removed.
  [JobName.AgentRun]: { attempts: 1, backoffMs: 1000, keepFinished: false },
  // A check that fails records the failure as the server's status; asking again is a new check.
  [JobName.McpServerCheck]: { attempts: 1, backoffMs: 1000, keepFinished: false },
  // Idempotent and repeated after every run: a failed pass is simply the next run's.
  [JobName.MemoryMaintenance]: { attempts: 1, backoffMs: 1000, keepFinished: false },
};

/**
 * The job-data field that carries the enqueuer's W3C trace context (libs/telemetry). Payload
 * schemas strip it (unknown keys), so handlers never see it; the worker's processor reads it.
 */
export const TRACE_KEY = '_trace';

export function parseJobPayload<N extends JobName>(name: N, data: unknown): JobPayload<N> {
  return jobPayloadSchemas[name].parse(data) as JobPayload<N>;
}

export function isJobName(value: string): value is JobName {
  return (Object.values(JobName) as string[]).includes(value);
}

/** Throws unless every job name has exactly one handler. */
export function assertOneHandlerPerJob(handlers: { job: string; owner: string }[]): void {
  const problems: string[] = [];
  for (const job of Object.values(JobName)) {
    const owners = handlers.filter((h) => h.job === job).map((h) => h.owner);
    if (owners.length === 0) problems.push(`job "${job}" has no handler`);
    if (owners.length > 1) problems.push(`job "${job}" has ${owners.length} handlers: ${owners.join(', ')}`);
  }
  for (const h of handlers) if (!isJobName(h.job)) problems.push(`handler ${h.owner} is for unknown job "${h.job}"`);
  if (problems.length) throw new Error(`Job registry check failed:\n  ${problems.join('\n  ')}`);
}
