import { Worker } from 'node:worker_threads';

// A worker whose event loop is stuck (a CPU-bound bug, a pattern that never ends) still holds its
// BullMQ locks' renewals hostage and answers nothing; Docker's restart policy only restarts a
// process that exited. This watchdog runs on its own thread: the main loop bumps a shared counter
// every HEARTBEAT_MS, and when the counter has not moved for `stallMs` the thread writes one log
// line and kills the process (SIGKILL: from a worker thread, process.exit would end only the thread,
// and a blocked main thread could never run a SIGTERM handler). Exit status: 137.
// Dependency-free on purpose: its test loads it in a plain node child that then busy-loops.

const HEARTBEAT_MS = 250;

export const STALL_LOG_MESSAGE = 'worker event loop stalled';

export interface StallWatchdogOptions {
  /** How long the main loop may go without a heartbeat before the process is killed. */
  stallMs: number;
  /** Also append the log line to this file (the process's LOG_FILE). */
  logFile?: string;
}

export interface StallWatchdog {
  stop(): Promise<void>;
}

// Runs on the watchdog thread (plain JS, eval'd): sleeps with Atomics.wait, which a worker thread
// may do, and compares the counter; the log line is pino-shaped JSON like the process's others.
const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const beats = new Int32Array(workerData.buffer);
let seen = Atomics.load(beats, 0);
let lastChange = Date.now();
let lastTick = lastChange;
const step = Math.max(10, Math.min(workerData.heartbeatMs, workerData.stallMs / 4));
for (;;) {
  Atomics.wait(beats, 1, 0, step);
  if (Atomics.load(beats, 1) !== 0) break;
  const now = Date.now();
  // This thread itself woke far too late: the whole process was paused (SIGSTOP, a suspended VM),
  // not just its event loop. Give the main loop a fresh chance instead of killing it on resume.
  if (now - lastTick > step + 1000) lastChange = now;
  lastTick = now;
  const current = Atomics.load(beats, 0);
  if (current !== seen) { seen = current; lastChange = now; continue; }
  const stalled = now - lastChange;
  if (stalled < workerData.stallMs) continue;
  const line = JSON.stringify({
    level: 60, time: now, pid: process.pid, msg: workerData.message, stalledMs: stalled, limitMs: workerData.stallMs,
    advice: 'the main event loop did not run for WORKER_STALL_EXIT_MS: exiting so the restart policy starts a fresh worker',
  }) + '\\n';
  try { fs.writeSync(2, line); } catch {}
  if (workerData.logFile) { try { fs.appendFileSync(workerData.logFile, line); } catch {} }
  process.kill(process.pid, 'SIGKILL');
}
`;

export function startStallWatchdog(options: StallWatchdogOptions): StallWatchdog {
  // [0] heartbeat counter, [1] stop flag.
  const buffer = new SharedArrayBuffer(8);
  const beats = new Int32Array(buffer);
  const heartbeat = setInterval(() => Atomics.add(beats, 0, 1), HEARTBEAT_MS);
  heartbeat.unref();
  const thread = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { buffer, stallMs: options.stallMs, heartbeatMs: HEARTBEAT_MS, logFile: options.logFile, message: STALL_LOG_MESSAGE },
  });
  // The watchdog never keeps the process alive on its own.
  thread.unref();
  return {
    async stop() {
      clearInterval(heartbeat);
      Atomics.store(beats, 1, 1);
      Atomics.notify(beats, 1);
      await thread.terminate();
    },
  };
}
