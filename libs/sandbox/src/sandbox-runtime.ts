import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { withTimeout } from './docker-utils';

/**
 * Whether sandboxes can run under the given OCI runtime (e.g. gVisor's `runsc`): registered with
 * the engine and able to run a locked-down container of the image. Returns null when it works, or
 * why not — the caller logs it and falls back to the engine's default runtime.
 */
export async function probeRuntime(image: string, runtime: string, docker: Docker = new Docker()): Promise<string | null> {
  const info = (await docker.info()) as { Runtimes?: Record<string, unknown> };
  if (!info.Runtimes?.[runtime]) {
    return `runtime "${runtime}" is not registered with Docker (for gVisor: sudo bash infra/sandbox/ensure-runsc.sh)`;
  }
  const container = await docker.createContainer({
    name: `h-runtime-probe-${randomBytes(4).toString('hex')}`,
    Image: image,
    Entrypoint: ['/bin/sh', '-c', 'test -w /tmp && node -e "process.exit(0)"'],
    User: '1000:1000',
    Labels: { 'h.probe': '1' },
    HostConfig: { Runtime: runtime, NetworkMode: 'none', ReadonlyRootfs: true, Tmpfs: { '/tmp': 'rw,size=1m' }, CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'] },
  });
  try {
    await container.start();
    const result = (await withTimeout(container.wait(), 60_000)) as { StatusCode: number };
    return result.StatusCode === 0 ? null : `a test container under "${runtime}" exited with status ${result.StatusCode}`;
  } catch (e) {
    return `a test container under "${runtime}" did not run: ${(e as Error).message}`;
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}
