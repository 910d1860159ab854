import 'reflect-metadata';
import { AppConfig, ConfigError } from '@h/config';
import { createWorker } from './bootstrap';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = AppConfig.fromProcess();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
      process.exit(78);
    }
    throw err;
  }
  await createWorker(config);
  process.stdout.write(JSON.stringify({ level: 30, msg: 'H worker started' }) + '\n');
}

void main();
