import 'reflect-metadata';
import { loadConfigOrExit } from '@h/config';
import { createWorker } from './bootstrap';

async function main(): Promise<void> {
  await createWorker(loadConfigOrExit());
  process.stdout.write(JSON.stringify({ level: 30, msg: 'H worker started' }) + '\n');
}

void main();
