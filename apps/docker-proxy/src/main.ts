// H's Docker socket proxy (compose service `docker-proxy`, role `docker-proxy` of the server image):
// the only process given the engine's socket. The worker reaches the engine through the socket this
// opens (DOCKER_HOST=unix://$DOCKER_PROXY_SOCKET), limited to H's own sandboxes; see
// libs/sandbox/src/docker-proxy and infra/README.md.
import { loadConfigOrExit } from '@h/config';
import { startDockerProxy } from '@h/sandbox';

const log = (level: number, msg: string, extra: Record<string, unknown> = {}): void => {
  process.stdout.write(JSON.stringify({ level, time: Date.now(), name: 'docker-proxy', msg, ...extra }) + '\n');
};

async function main(): Promise<void> {
  const env = loadConfigOrExit().env;
  const [uid, gid] = (env.DOCKER_PROXY_SOCKET_OWNER ?? '').split(':').map(Number);
  const proxy = await startDockerProxy({
    listen: env.DOCKER_PROXY_SOCKET,
    upstream: env.DOCKER_PROXY_UPSTREAM,
    prefix: env.SANDBOX_NAME_PREFIX,
    bindDirs: env.DOCKER_PROXY_BIND_DIRS,
    owner: env.DOCKER_PROXY_SOCKET_OWNER ? { uid, gid } : undefined,
    onDeny: (entry) => log(40, 'refused a Docker API call', entry),
  });
  log(30, 'H docker proxy listening', { socket: proxy.socketPath, upstream: env.DOCKER_PROXY_UPSTREAM, prefix: env.SANDBOX_NAME_PREFIX });
  const stop = (): void => void proxy.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  log(50, `docker proxy failed to start: ${err.message}`);
  process.exit(1);
});
