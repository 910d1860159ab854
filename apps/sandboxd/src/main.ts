import { sandboxdEnv } from '@h/config/sandboxd';
import { DEFAULT_SOCKET_PATH, WORKSPACE_ROOT } from '@h/sandbox-protocol';
import { runBridge } from './bridge';
import { EGRESS_DEFAULT_PORT, startEgressForwarder, useEgressProxyUrl } from './egress-forwarder';
import { SandboxServer } from './server';

// sandboxd [--root DIR] [--socket PATH]   serve (the container's main process, under tini)
// sandboxd --bridge [--socket PATH]       relay stdio <-> the socket (run via `docker exec -i`)
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const env = sandboxdEnv();
  const socketPath = arg('--socket') ?? env.SANDBOXD_SOCKET ?? DEFAULT_SOCKET_PATH;
  if (process.argv.includes('--bridge')) {
    await runBridge(socketPath);
    return;
  }
  const root = arg('--root') ?? env.SANDBOXD_ROOT ?? WORKSPACE_ROOT;
  const server = new SandboxServer({ root, socketPath, stateDir: env.SANDBOXD_STATE_DIR, snapshotsDir: env.SANDBOXD_SNAPSHOT_DIR });
  await server.listen();
  // Set by the driver only for workspaces with network access (the host proxy's socket is mounted).
  const egressSocket = env.SANDBOXD_EGRESS_SOCKET;
  if (egressSocket) {
    const port = env.SANDBOXD_EGRESS_PORT ?? EGRESS_DEFAULT_PORT;
    await startEgressForwarder(egressSocket, port);
    process.stderr.write(`sandboxd: egress proxy offered on 127.0.0.1:${port}\n`);
  } else if (env.SANDBOXD_EGRESS_URL) {
    useEgressProxyUrl(env.SANDBOXD_EGRESS_URL);
    process.stderr.write(`sandboxd: egress proxy offered at ${env.SANDBOXD_EGRESS_URL}\n`);
  }
  process.stderr.write(`sandboxd listening on ${socketPath}, root ${server.paths.root}\n`);
  const shutdown = () => {
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // A parent that dies without a signal (local driver) must not leave the daemon behind.
  if (env.SANDBOXD_EXIT_WITH_PARENT) {
    process.on('disconnect', shutdown);
  }
}

main().catch((e) => {
  process.stderr.write(`sandboxd: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
