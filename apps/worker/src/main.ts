import 'reflect-metadata';
import { loadConfigOrExit } from '@h/config';
import { createWorker } from './bootstrap';
import { startStallWatchdog } from './health/stall-watchdog';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // Started by the process, not by createWorker: tests run workers inside jest's own process.
  if (config.env.WORKER_STALL_EXIT_MS > 0) startStallWatchdog({ stallMs: config.env.WORKER_STALL_EXIT_MS, logFile: config.env.LOG_FILE });
  await createWorker(config);
  process.stdout.write(JSON.stringify({ level: 30, msg: 'H worker started' }) + '\n');
}

void main();
