import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { RunRecord, RunRepository, SubAgentRunRepository } from '@h/db';
import { JobName, JobQueueService } from '@h/jobs';

export const runJobId = (runId: string) => `run_${runId}`;

// Admission control for agent runs, shared by the api (a message arrived, a decision came in) and
// the worker (a run ended, periodic sweep). Postgres decides who may start; BullMQ only carries the
// admitted runs to a worker. Nothing running is ever evicted to make room.
@Injectable()
export class RunDispatcher {
  private readonly logger = new Logger(RunDispatcher.name);

  constructor(
    private readonly runs: RunRepository,
    private readonly subAgents: SubAgentRunRepository,
    private readonly jobs: JobQueueService,
    private readonly config: AppConfig,
  ) {}

  /** Passes not started yet, per team: callers that arrive before a pass starts share it. */
  private readonly nextPass = new Map<string, Promise<RunRecord[]>>();
  /** The latest pass per team (never rejects), which the next one waits for. */
  private readonly lastPass = new Map<string, Promise<void>>();

  /**
   * Admits what may start now and enqueues its jobs. Admissions of one team serialize on a lock in
   * Postgres, so 50 messages posted at once used to queue 50 admission transactions one behind the
   * other (p50 enqueue → start 650 ms in bench/runs). Callers in this process now share passes: a
   * caller arriving while a pass runs waits for the next one, which starts after it and sees the
   * caller's run; every caller arriving meanwhile joins that same next pass.
   */
  dispatch(teamId: string): Promise<RunRecord[]> {
    const pending = this.nextPass.get(teamId);
    if (pending) return pending;
    const previous = this.lastPass.get(teamId) ?? Promise.resolve();
    const pass = previous.then(() => {
      // From here on this pass may already have read the queue: later callers need another one.
      this.nextPass.delete(teamId);
      return this.admitAndEnqueue(teamId);
    });
    this.nextPass.set(teamId, pass);
    const settled: Promise<void> = pass.then(
      () => this.forget(teamId, settled),
      () => this.forget(teamId, settled),
    );
    this.lastPass.set(teamId, settled);
    return pass;
  }

  private forget(teamId: string, pass: Promise<void>): void {
    if (this.lastPass.get(teamId) === pass) this.lastPass.delete(teamId);
  }

  private async admitAndEnqueue(teamId: string): Promise<RunRecord[]> {
    const admitted = await this.runs.admit(teamId, {
      perTeam: this.config.env.RUNS_PER_TEAM,
      perUser: this.config.env.RUNS_PER_USER,
      perWorkspace: this.config.env.RUNS_PER_WORKSPACE,
    });
    // One round trip for all of them: a pass admitting 50 runs used to enqueue them one by one.
    await this.jobs.enqueueMany(
      JobName.AgentRun,
      admitted.map((run) => ({ payload: { runId: run.id, sessionId: run.sessionId }, jobId: runJobId(run.id) })),
    );
    if (admitted.length) this.logger.log({ teamId, runs: admitted.map((r) => r.id) }, 'runs admitted');
    return admitted;
  }

  /**
   * Called when a run's job has finished. A run admitted again while that job was still active
   * (e.g. a decision that arrived before the run was parked) got no job of its own: BullMQ ignores
   * an add whose job id is still taken. The id is free now, so it is enqueued here; a run that is
   * not running, or already has its job, is left alone (the add is then a no-op).
   */
  async afterJob(runId: string): Promise<void> {
    const run = await this.runs.findById(runId);
    if (run?.status !== 'running') return;
    await this.jobs.enqueue(JobName.AgentRun, { runId, sessionId: run.sessionId }, { jobId: runJobId(runId) });
  }

  /**
   * Heals what a crash or a Redis restart can leave behind: queued runs nobody admitted, and runs
   * marked running whose job is gone. Safe to run on every worker at any time.
   */
  async sweep(): Promise<void> {
    // A parent whose last sub-agent ended while the worker that ended it died before requeueing it.
    for (const parent of await this.subAgents.parentsReadyToResume()) {
      if (await this.subAgents.resumeParentIfDone(parent.id)) this.logger.warn({ runId: parent.id }, 'sub-agents had ended; resuming their parent');
    }
    for (const teamId of await this.runs.teamsWithQueuedRuns()) await this.dispatch(teamId);
    const stale = await this.runs.listRunning(new Date(Date.now() - this.config.env.RUN_LOCK_MS * 2));
    for (const run of stale) {
      if (await this.jobs.isPending(JobName.AgentRun, runJobId(run.id))) continue;
      this.logger.warn({ runId: run.id }, 'running run has no job; enqueueing it again to resume');
      await this.jobs.enqueue(JobName.AgentRun, { runId: run.id, sessionId: run.sessionId }, { jobId: runJobId(run.id) });
    }
  }
}
