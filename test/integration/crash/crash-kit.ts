import { parseScenario, startScriptedModelServer, type FaultSpec, type Scenario, type ScenarioTurn, type ScriptedModelServer } from '@h/scripted-model';
import { EgressLogRepository, SandboxRepository, WorkspaceRepository } from '@h/db';
import { EgressService } from '@h/egress';
import { SandboxManager } from '@h/workspaces';
import { startStack, waitFor, type TestStack } from '../../support/api-harness';
import { createRunWorld, type RunWorld } from '../../support/run-fixtures';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { ensureServerBuild, startWorkerProcess, type WorkerProcess } from '../../support/worker-process';

// What the crash specs share: scenarios slow enough to kill a worker in the middle of them, a check
// that an event log is complete, and a way to read the workspace's files with the worker gone.

/** Every chunk of the answer waits this long, so a model turn streams for about two seconds. */
export const SLOW: FaultSpec = { type: 'slow', chunkDelayMs: 300 };

export function summaryOf(run: number): string {
  return [
    '### Changes Made',
    `- \`notes/run-${run}.txt\`: created with the note of run ${run}.`,
    `- \`log.txt\`: appended the line \`run-${run}\`.`,
    '',
    '### Verification',
    `- Ran \`echo run-${run} >> log.txt\`: exit 0.`,
    '',
    '### Outcome',
    `Run ${run} recorded its note and its log line.`,
  ].join('\n');
}

/** The closing turn of a run that used tools: write_summary and task_complete in one answer. */
export function finishTurn(run: number, expect: ScenarioTurn['expect'] = { lastMessageRole: 'tool' }): ScenarioTurn {
  return {
    expect,
    fault: SLOW,
    thinking: `Run ${run} is done; summarise.`,
    toolCalls: [
      { name: 'write_summary', arguments: { summary: summaryOf(run) } },
      { name: 'task_complete', arguments: {} },
    ],
  };
}

/**
 * The slow turns of run `run`: write a note, (the `afterNote` turns,) append to log.txt, finish.
 * The log line turn expects `logExpect` of the request that asks for it.
 */
export function runTurns(run: number, afterNote: ScenarioTurn[] = [], logExpect: ScenarioTurn['expect'] = { lastMessageRole: 'tool' }): ScenarioTurn[] {
  return [
    {
      expect: { lastMessageRole: 'user', lastMessageContains: `Run ${run}:` },
      fault: SLOW,
      thinking: `Run ${run}: write the note first.`,
      toolCalls: [{ name: 'write_file', arguments: { path: `notes/run-${run}.txt`, content: `note ${run}\n` } }],
    },
    ...afterNote,
    {
      expect: logExpect,
      fault: SLOW,
      thinking: 'Now the log line.',
      toolCalls: [{ name: 'run_command', arguments: { command: `echo run-${run} >> log.txt` } }],
    },
    finishTurn(run),
  ];
}

export function crashScenario(name: string, turns: ScenarioTurn[]): Scenario {
  return parseScenario({ name, turns });
}

function isScenarioList(list: ScenarioTurn[] | Scenario[]): list is Scenario[] {
  return list.length > 0 && 'turns' in list[0];
}

export interface CrashWorld {
  model: ScriptedModelServer;
  stack: TestStack;
  world: RunWorld;
  /** The current worker process; replace it after a kill. */
  worker: WorkerProcess;
  /** Drops the world's own database (close() does it too). */
  dropDatabase(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The scripted model answering `turns` (as its default scenario), a database of its own, the api in this process, the
 * BUILT worker as a child process with the same config and a 3 s run lock (a killed worker's run
 * is picked up within seconds), and a user with a team, a key and a ready workspace.
 */
export async function startCrashWorld(name: string, turns: ScenarioTurn[] | Scenario[], env: Record<string, string> = {}): Promise<CrashWorld> {
  ensureServerBuild();
  // Whole scenarios (each with its match, e.g. with sub-agent scripts) or one default scenario's turns.
  const scenarios = isScenarioList(turns) ? turns : [crashScenario(name, turns)];
  const model = await startScriptedModelServer({ scenarios, defaultScenario: isScenarioList(turns) ? undefined : name, demo: false });
  const database = await createIsolatedDatabase('crash');
  const stack = await startStack({ env: { DATABASE_URL: database.url, DEEPSEEK_BASE_URL: model.url, RUN_LOCK_MS: '3000', ...env } });
  const worker = await startWorkerProcess(stack.config);
  const crash: CrashWorld = {
    model,
    stack,
    worker,
    world: await createRunWorld(stack, name.replace(/[^a-z]/g, '')),
    dropDatabase: () => database.drop(),
    async close() {
      await crash.worker.stop();
      await stack.close();
      await model.close();
      await database.drop();
    },
  };
  return crash;
}

/**
 * The scripted server is streaming turn `turn` (0-based) of the conversation that began with
 * `firstMessage` right now. H's worker names no conversation to the provider (no test-only
 * headers), so a session's requests are found by its first message.
 */
export function streamingTurn(model: ScriptedModelServer, firstMessage: string, turn: number): boolean {
  return model.requests.some((r) => r.firstUserMessage?.startsWith(firstMessage) && r.turn === turn && r.status === 200 && r.outcome === 'pending');
}

/** The requests of the conversation that began with `firstMessage` (the session's first message). */
export function sessionRequests(model: ScriptedModelServer, firstMessage: string): ScriptedModelServer['requests'] {
  return model.requests.filter((r) => r.firstUserMessage?.startsWith(firstMessage));
}

export async function waitForStreamingTurn(model: ScriptedModelServer, firstMessage: string, turn: number, timeoutMs = 60_000): Promise<void> {
  await waitFor(`the model to stream turn ${turn + 1} of "${firstMessage}"`, async () => streamingTurn(model, firstMessage, turn), timeoutMs);
}

/**
 * What "complete" means for an event log: seqs 1..N without a gap, every tool call of an assistant
 * message answered by exactly one tool.end (and started at most once), no assistant message twice,
 * and one terminal event per run. Returns the problems found, as sentences.
 */
export function logProblems(events: Array<{ seq: number; runId: string | null; type: string; data: any }>): string[] {
  const problems: string[] = [];
  events.forEach((e, i) => {
    if (e.seq !== i + 1) problems.push(`event #${i + 1} has seq ${e.seq}`);
  });
  const calls = new Map<string, number>();
  const seenMessages = new Set<string>();
  for (const e of events) {
    if (e.type !== 'message.assistant') continue;
    const key = JSON.stringify([e.runId, e.data.content, e.data.reasoningContent, e.data.toolCalls]);
    if (seenMessages.has(key)) problems.push(`assistant message at seq ${e.seq} repeats an earlier one`);
    seenMessages.add(key);
    for (const c of e.data.toolCalls ?? []) {
      if (calls.has(c.id)) problems.push(`tool call ${c.id} appears in two assistant messages`);
      calls.set(c.id, e.seq);
    }
  }
  const count = (type: string, id: string) => events.filter((e) => e.type === type && e.data.toolCallId === id).length;
  for (const [id, seq] of calls) {
    const ends = count('tool.end', id);
    if (ends !== 1) problems.push(`tool call ${id} (seq ${seq}) has ${ends} tool.end events`);
    if (count('tool.start', id) > 1) problems.push(`tool call ${id} started more than once`);
    const end = events.find((e) => e.type === 'tool.end' && e.data.toolCallId === id);
    if (end && end.seq < seq) problems.push(`tool call ${id} ends (seq ${end.seq}) before it was made (seq ${seq})`);
  }
  for (const e of events) {
    if ((e.type === 'tool.end' || e.type === 'tool.start') && !calls.has(e.data.toolCallId)) problems.push(`${e.type} at seq ${e.seq} answers no call`);
  }
  const runs = new Set(events.map((e) => e.runId).filter(Boolean));
  for (const runId of runs) {
    const terminal = events.filter((e) => e.runId === runId && ['run.done', 'run.failed', 'run.cancelled'].includes(e.type));
    if (terminal.length !== 1) problems.push(`run ${runId} has ${terminal.length} terminal events (${terminal.map((t) => t.type).join(', ')})`);
  }
  return problems;
}

/** Sum of the per-request usage events of a run: what the run's totals must equal. */
export function usageFromEvents(events: Array<{ runId: string | null; type: string; data: any }>, runId: string) {
  const usage = events.filter((e) => e.runId === runId && e.type === 'usage');
  return {
    requests: usage.length,
    promptTokens: usage.reduce((n, e) => n + e.data.request.promptTokens, 0),
    completionTokens: usage.reduce((n, e) => n + e.data.request.completionTokens, 0),
    cacheHitTokens: usage.reduce((n, e) => n + e.data.request.cacheHitTokens, 0),
    cacheMissTokens: usage.reduce((n, e) => n + e.data.request.cacheMissTokens, 0),
  };
}

/**
 * Reads the workspace's files from this (test) process through a sandbox manager of its own: the
 * worker is a child process here, so there is no in-process one to borrow.
 */
export async function workspaceFiles(stack: TestStack, world: RunWorld): Promise<{ read(path: string): Promise<string>; close(): Promise<void> }> {
  const egress = new EgressService(stack.config, stack.api.get(WorkspaceRepository, { strict: false }), stack.api.get(EgressLogRepository, { strict: false }));
  const manager = new SandboxManager(stack.config, stack.api.get(SandboxRepository, { strict: false }), egress);
  const { workspace } = await manager.open({ id: world.workspaceId, teamId: world.teamId, networkEnabled: false });
  return {
    read: (path) => workspace.readTextFile(path),
    close: async () => {
      await manager.onApplicationShutdown();
      await egress.onApplicationShutdown();
    },
  };
}
