// Runs the scripted OpenAI-compatible model server on its own: for the offline demo, for
// benchmarks, and for pointing a dev instance at it (DEEPSEEK_BASE_URL=<printed url>).
//   node dist/apps/model-server/src/main.js [--port 4010] [--host 127.0.0.1] [--scenarios DIR] [--api-key KEY]
import { toolEnv, type ToolEnv } from '@h/config';
import { builtinScenarioDir, startScriptedModelServer } from '@h/scripted-model';

interface CliOptions {
  port: number;
  host: string;
  scenarios: string;
  /** When set, other bearer tokens get DeepSeek's 401 (to try the key-error path). */
  apiKey?: string;
}

export function parseArgs(argv: string[], env: Pick<ToolEnv, 'MODEL_SERVER_PORT' | 'MODEL_SERVER_HOST' | 'MODEL_SERVER_SCENARIOS' | 'MODEL_SERVER_API_KEY'>): CliOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const port = Number(value('--port') ?? env.MODEL_SERVER_PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${value('--port') ?? env.MODEL_SERVER_PORT}`);
  return {
    port,
    host: value('--host') ?? env.MODEL_SERVER_HOST ?? '127.0.0.1',
    scenarios: value('--scenarios') ?? env.MODEL_SERVER_SCENARIOS ?? builtinScenarioDir(),
    apiKey: value('--api-key') ?? env.MODEL_SERVER_API_KEY,
  };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), toolEnv());
  const server = await startScriptedModelServer({
    port: options.port,
    host: options.host,
    scenarioDir: options.scenarios,
    apiKey: options.apiKey,
  });
  process.stdout.write(`scripted model server listening on ${server.url}\n`);
  process.stdout.write(`scenarios (${options.scenarios}): ${server.scenarios().join(', ') || 'none'}; unmatched requests get the labelled demo model\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((err: Error) => {
    process.stderr.write(`model-server: ${err.message}\n`);
    process.exit(1);
  });
}
