import 'reflect-metadata';
import { AppConfig, ConfigError } from '@h/config';
import { createApiApp } from './bootstrap';

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
  const app = await createApiApp(config);
  await app.listen(config.env.H_PORT, config.env.H_HOST);
  process.stdout.write(JSON.stringify({ level: 30, msg: `H api listening on ${config.publicUrl}` }) + '\n');
}

void main();
