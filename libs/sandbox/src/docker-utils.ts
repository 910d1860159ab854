import { hostname } from 'node:os';
import Docker from 'dockerode';

/**
 * A client for DOCKER_HOST as libs/config validated it (unix:///path or tcp://host:port); unset:
 * the local engine's socket. In compose that is H's socket proxy, never the engine itself.
 */
export function dockerClient(dockerHost?: string): Docker {
  if (!dockerHost) return new Docker({ socketPath: '/var/run/docker.sock' });
  if (dockerHost.startsWith('unix://')) return new Docker({ socketPath: dockerHost.slice('unix://'.length) });
  const url = new URL(dockerHost.replace(/^tcp:/, 'http:'));
  return new Docker({ host: url.hostname, port: Number(url.port || 2375), protocol: 'http' });
}

/**
 * Whether the engine runs on this host, sharing this process's filesystem (so a dir made here can
 * be bind-mounted into a container): its name is this host's name. A process in a container that
 * was handed the host's engine socket has a name of its own (the container's), as does one behind
 * a remote engine. False when the engine does not answer.
 */
export async function engineSharesHost(docker: Docker): Promise<boolean> {
  const info = (await docker.info().catch(() => null)) as { Name?: string } | null;
  return Boolean(info?.Name) && info?.Name === hostname();
}

/** A .catch() handler that swallows the given Docker API status codes (e.g. 404, 409). */
export function ignoreStatus(...codes: number[]) {
  return (e: unknown): void => {
    if (!codes.includes((e as { statusCode?: number }).statusCode ?? -1)) throw e;
  };
}

/** What withTimeout rejects with when the promise did not settle in time (an engine that does not answer). */
export class TimeoutError extends Error {}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

/** Removes a volume; a just-removed container may hold it for a moment (409), so retry briefly. */
export async function removeVolume(docker: Docker, name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    try {
      await docker.getVolume(name).remove();
      return;
    } catch (e) {
      const code = (e as { statusCode?: number }).statusCode;
      if (code === 404) return;
      if (code !== 409) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
