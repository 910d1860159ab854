// H's own time per model step (issue 9, point 8): the scripted "fix a failing test" task
// (libs/scripted-model/scenarios/fix-failing-test.json) with an instant model, one run at a time
// through the public API, each in a new session on a workspace reset to the fixture first.
//   H's time per step = (message → run.done − model server time − command time) / model requests
// message → run.done: from just before POST /messages to the run.done event at a Socket.IO client;
// model server time: the scripted server's own start/end of each request (`--timings` lines);
// command time: sandboxd's own duration of each run_command (tool.end data.durationMs).
import Docker from 'dockerode';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { io } from 'socket.io-client';
import { Api, pct, until } from './bench-stack';

export interface ModelTiming {
  startedAtMs: number;
  endedAtMs: number;
}

export interface StepRun {
  wallMs: number;
  modelMs: number;
  commandMs: number;
  requests: number;
  /** (wall − model − command) / requests */
  ownPerStepMs: number;
  /** POST sent → run.started's ts (admission, queue, claim, log read, sandbox open). */
  startMs: number;
  /** POST sent → the run row's createdAt; createdAt → startedAt (the worker's claim). */
  toCreatedMs: number;
  toClaimMs: number;
  /** run.done's ts → received by the Socket.IO client. */
  deliveryMs: number;
}

export interface StepsContext {
  api: Api;
  base: string;
  workspaceId: string;
  /** Every request the model server finished so far (filled from its `--timings` lines). */
  modelTimings: ModelTiming[];
  fixture: Record<string, string>;
  /** Puts the fixture back into the workspace (the previous run fixed the bug). */
  seed: (files: Record<string, string>) => Promise<void>;
}

const hrNow = (): number => performance.timeOrigin + performance.now();
export const STEPS_MESSAGE = 'The failing test in test/math.test.js needs fixing.';

async function oneRun(ctx: StepsContext): Promise<StepRun> {
  await ctx.seed(ctx.fixture);
  const session = await ctx.api.call('POST', `/api/v1/workspaces/${ctx.workspaceId}/sessions`, { permissionMode: 'skip' });
  const events: Array<{ type: string; ts: string; data: any }> = [];
  let doneAt = 0;
  const socket = io(ctx.base, { path: '/api/socket.io', transports: ['websocket'], extraHeaders: { cookie: ctx.api.cookieHeader() }, reconnection: false, forceNew: true });
  socket.on('event', (e: { type: string; ts: string; data: any }) => {
    if (e.type === 'run.done' || e.type === 'run.failed' || e.type === 'run.cancelled') doneAt ||= hrNow();
    events.push(e);
  });
  await new Promise<void>((res, rej) => {
    socket.once('ready', () => socket.emit('subscribe', { sessionId: session.id, afterSeq: 0 }, (ack: { ok: boolean }) => (ack.ok ? res() : rej(new Error('subscribe refused')))));
    socket.once('connect_error', rej);
  });
  const before = hrNow();
  const posted = await ctx.api.call('POST', `/api/v1/sessions/${session.id}/messages`, { content: STEPS_MESSAGE });
  await until('the run to end', async () => doneAt > 0, 120_000);
  socket.close();
  const end = events.find((e) => e.type.startsWith('run.') && e.type !== 'run.started');
  if (end?.type !== 'run.done') throw new Error(`the fix-a-test run ended ${end?.type}: ${JSON.stringify(end?.data)}`);
  // The model server's timing line is written when its response is flushed: a moment after the
  // last one, wait for it before reading.
  await until('the model timings', async () => ctx.modelTimings.some((t) => t.startedAtMs >= before && t.endedAtMs <= doneAt) || null, 5000);
  const mine = ctx.modelTimings.filter((t) => t.startedAtMs >= before && t.startedAtMs <= doneAt);
  const modelMs = mine.reduce((n, t) => n + (t.endedAtMs - t.startedAtMs), 0);
  const commandMs = events
    .filter((e) => e.type === 'tool.end' && e.data.name === 'run_command')
    .reduce((n, e) => n + Number(e.data.data?.durationMs ?? e.data.durationMs ?? 0), 0);
  const wallMs = doneAt - before;
  const started = Date.parse(events.find((e) => e.type === 'run.started')?.ts ?? '');
  const row = await ctx.api.call('GET', `/api/v1/runs/${posted.id}`);
  return {
    wallMs,
    modelMs,
    commandMs,
    requests: mine.length,
    ownPerStepMs: (wallMs - modelMs - commandMs) / Math.max(1, mine.length),
    startMs: started - before,
    toCreatedMs: Date.parse(row.createdAt) - before,
    toClaimMs: Date.parse(row.startedAt) - Date.parse(row.createdAt),
    deliveryMs: doneAt - Date.parse(end.ts),
  };
}

/** One warm-up run (sandbox start, first connections), then `runs` measured ones. */
export async function stepsPhase(ctx: StepsContext, runs: number): Promise<StepRun[]> {
  await oneRun(ctx);
  const out: StepRun[] = [];
  for (let i = 0; i < runs; i++) out.push(await oneRun(ctx));
  return out;
}

type StepFigure = 'wallP50' | 'ownP50' | 'ownP90' | 'modelP50' | 'commandP50' | 'requests' | 'startP50' | 'deliveryP50' | 'toCreatedP50' | 'toClaimP50';

export function summariseSteps(runs: StepRun[]): Record<StepFigure, number> {
  return {
    toCreatedP50: pct(runs.map((r) => r.toCreatedMs), 50),
    toClaimP50: pct(runs.map((r) => r.toClaimMs), 50),
    startP50: pct(runs.map((r) => r.startMs), 50),
    deliveryP50: pct(runs.map((r) => r.deliveryMs), 50),
    wallP50: pct(runs.map((r) => r.wallMs), 50),
    ownP50: pct(runs.map((r) => r.ownPerStepMs), 50),
    ownP90: pct(runs.map((r) => r.ownPerStepMs), 90),
    modelP50: pct(runs.map((r) => r.modelMs), 50),
    commandP50: pct(runs.map((r) => r.commandMs), 50),
    requests: pct(runs.map((r) => r.requests), 50),
  };
}

/** Writes files into a Docker sandbox's /workspace through `docker exec` (setup, not measured). */
export function dockerSeeder(containerName: string): (files: Record<string, string>) => Promise<void> {
  const docker = new Docker();
  return async (files) => {
    const script = Object.entries(files)
      .map(([p, c]) => `mkdir -p "$(dirname '${p}')" && printf %s '${Buffer.from(c).toString('base64')}' | base64 -d > '${p}'`)
      .join(' && ');
    const exec = await docker.getContainer(containerName).exec({ Cmd: ['sh', '-c', `cd /workspace && ${script}`], User: '1000:1000', AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({});
    await new Promise<void>((res, rej) => {
      stream.on('end', () => res());
      stream.on('error', rej);
      stream.resume();
    });
    const { ExitCode } = await exec.inspect();
    if (ExitCode !== 0) throw new Error(`seeding the workspace failed (exit ${ExitCode})`);
  };
}

/** The same for the UNSAFE local driver: the workspace is a host directory. */
export function localSeeder(dir: string): (files: Record<string, string>) => Promise<void> {
  return async (files) => {
    for (const [p, c] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
  };
}
