import 'reflect-metadata';
import { loadConfigOrExit } from '@h/config';
import { createApiApp } from './bootstrap';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await createApiApp(config);
  await app.listen(config.env.H_PORT, config.env.H_HOST);
  process.stdout.write(JSON.stringify({ level: 30, msg: `H api listening on ${config.publicUrl}` }) + '\n');
}

void main();
