// Step-by-step mode in the worker (seed "IDE-Driven Step-by-Step Execution"). One segment of a
// step-mode run: it reads where the run stands from its own events (libs/agent step-state.ts), does
// the next thing, and either ends the run or parks it while one step's code-writer sub-agent works
// (a child run, DelegationService: the parent holds no worker meanwhile and is put back in line
// when the child ends). A worker restart anywhere in between resumes at the step the log names.
import { nextStepAction, planSteps, stepModeState, stepResult, stepTask, stepWrapUp, unfinishedSteps, type AgentRunOptions, type StepModeState } from '@h/agent';
import type { AgentEvent, ErrorCode, Usage } from '@h/contracts';
import { ZERO_USAGE, type EventEnvelope, type RunRecord } from '@h/db';
import { apiErrorCode } from './engine-error-codes';

/** The child runs a step needs: DelegationService's API (the one child-run mechanism). */
export interface StepDelegation {
  startChildren(input: { parent: RunRecord; leaseId: string; key: string; children: { profile: 'code-writer'; task: string; usePrefix?: boolean }[] }): Promise<unknown>;
  state(parentRunId: string, key: string): Promise<'none' | 'active' | 'ended'>;
  outcomes(parent: RunRecord, key: string): Promise<{ runId: string; status: 'completed' | 'failed' | 'cancelled'; result: string; error: { code: string; message: string } | null }[] | null>;
}

export interface StepSegmentInput {
  run: RunRecord;
  leaseId: string;
  /** The session's log as the segment started (with calls a lost worker left open closed). */
  log: EventEnvelope[];
  /** The options planning runs the agent loop with (its tools and limits are step mode's own). */
  agent: Omit<AgentRunOptions, 'tools' | 'maxSteps' | 'guidance'>;
  /** Persists (batched) and publishes one event of this run; `flush` makes the batch durable. */
  record: (event: AgentEvent) => Promise<void>;
  flush: () => Promise<void>;
  /** A stop was asked for (the run's cancelRequestedAt, or the worker's cancel signal). */
  stopRequested: () => Promise<boolean>;
}

export type StepSegmentResult =
  | { kind: 'parked' }
  | { kind: 'ended'; status: 'completed' | 'failed' | 'cancelled'; error: { code: ErrorCode; message: string } | null };

/** The key of step `index`'s child under its parent run (DelegationService's `key`). */
export function stepKey(index: number): string {
  return `step-${index}`;
}

const SKIPPED_RESULT = 'Skipped: the run was stopped before this step ran.';

export class StepModeRun {
  private state: StepModeState;
  private readonly seen: { runId: string; type: string; data: unknown }[] = [];

  constructor(
    private readonly delegation: StepDelegation,
    private readonly input: StepSegmentInput,
  ) {
    this.state = stepModeState(input.log, input.run.id);
  }

  async execute(): Promise<StepSegmentResult> {
    const { run } = this.input;
    let usage: Usage = ZERO_USAGE;
    if (!this.state.plan) {
      if (await this.input.stopRequested()) return this.end('cancelled', null, usage);
      const { outcome, result } = await planSteps({ ...this.input.agent, onEvent: (e) => this.emit(e) }, this.state);
      usage = result.usage;
      if (outcome.status === 'cancelled') return this.end('cancelled', null, usage);
      if (outcome.status === 'failed') return this.end('failed', { code: apiErrorCode(outcome.code), message: outcome.message }, usage);
    }
    for (;;) {
      const action = nextStepAction(this.state);
      if (action.kind === 'wrapup') {
        const summary = stepWrapUp(this.state);
        await this.emit({ type: 'summary.written', data: { summary } });
        await this.emit({ type: 'run.done', data: { summary, reply: null, usage } });
        return { kind: 'ended', status: 'completed', error: null };
      }
      if (action.kind === 'begin') {
        // A stop asked for while a step ran takes effect here, between steps.
        if (await this.input.stopRequested()) return this.stop(usage);
        const content = this.state.steps[action.index].content;
        await this.emit({ type: 'step.begin', data: { index: action.index, content } });
        await this.startChild(action.index);
        return { kind: 'parked' };
      }
      // Planning either locked a plan or ended the run above: no plan here is a bug.
      if (action.kind === 'plan') return this.end('failed', { code: 'INTERNAL', message: 'Step mode has no locked plan after planning.' }, usage);
      // The step began: its child runs, ended, or (a worker died in between) was never started.
      const key = stepKey(action.index);
      const childState = await this.delegation.state(run.id, key);
      if (childState !== 'ended') {
        // startChildren is idempotent per key: it starts the child if there is none and parks the run again.
        await this.startChild(action.index);
        return { kind: 'parked' };
      }
      const [outcome] = (await this.delegation.outcomes(run, key)) ?? [];
      const completed = outcome?.status === 'completed';
      const why = outcome?.error ? `${outcome.error.code}: ${outcome.error.message}` : (outcome?.status ?? 'no sub-agent run');
      const report = completed ? outcome.result : `The step's sub-agent ${outcome?.status === 'cancelled' ? 'was cancelled' : 'failed'} (${why}).${outcome?.result ? ` Its last report: ${outcome.result}` : ''}`;
      await this.emit({
        type: 'step.end',
        data: { index: action.index, status: completed ? 'completed' : 'failed', result: stepResult(report), ...(outcome ? { childRunId: outcome.runId } : {}) },
      });
    }
  }

  private async startChild(index: number): Promise<void> {
    await this.input.flush(); // step.begin is in the log before the child exists
    await this.delegation.startChildren({
      parent: this.input.run,
      leaseId: this.input.leaseId,
      key: stepKey(index),
      // Isolated: the step and the earlier results (in the task), not the profile's earlier tasks.
      children: [{ profile: 'code-writer', task: stepTask(this.state, index), usePrefix: false }],
    });
  }

  /** The stop: every step not run yet ends skipped, and so does the run (cancelled). */
  private async stop(usage: Usage): Promise<StepSegmentResult> {
    for (const step of unfinishedSteps(this.state)) {
      await this.emit({ type: 'step.end', data: { index: step.index, status: 'skipped', result: SKIPPED_RESULT } });
    }
    await this.emit({ type: 'summary.written', data: { summary: stepWrapUp(this.state) } });
    return this.end('cancelled', null, usage);
  }

  private async end(status: 'failed' | 'cancelled', error: { code: ErrorCode; message: string } | null, usage: Usage): Promise<StepSegmentResult> {
    if (status === 'cancelled') await this.emit({ type: 'run.cancelled', data: { usage } });
    else if (error) await this.emit({ type: 'run.failed', data: { code: error.code, message: error.message, usage } });
    return { kind: 'ended', status, error };
  }

  /** Records the event and folds it into the state, so the loop decides on what is in the log. */
  private async emit(event: AgentEvent): Promise<void> {
    await this.input.record(event);
    this.seen.push({ runId: this.input.run.id, type: event.type, data: event.data });
    if (event.type.startsWith('step.') || event.type === 'tool.end' || event.type === 'prompt.guidance') {
      this.state = stepModeState([...this.input.log, ...this.seen], this.input.run.id);
    }
  }
}
