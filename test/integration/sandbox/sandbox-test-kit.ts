import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { DockerSandboxDriver, ensureSandboxImage, type DockerSandboxOptions, type SandboxRecord, type SandboxSpec } from '@h/sandbox';

// Every container and volume a sandbox test creates carries h.test=1 and a per-file name prefix,
// so cleanup removes exactly what this file made (and a crashed run's leftovers by label).
export const TEST_LABELS = { 'h.test': '1' };
export const docker = new Docker();

/** First call may build the image (minutes); the jest global setup may have set H_SANDBOX_IMAGE. */
export const IMAGE_TIMEOUT_MS = 30 * 60_000;

export function testPrefix(): string {
  return `h-test-${randomBytes(3).toString('hex')}-`;
}

export async function makeDriver(prefix: string, opts: Partial<DockerSandboxOptions> = {}): Promise<DockerSandboxDriver> {
  const image = await ensureSandboxImage({ prebuilt: process.env.H_SANDBOX_IMAGE });
  return new DockerSandboxDriver({ image, namePrefix: prefix, extraLabels: TEST_LABELS, idleTimeoutMs: 0, ...opts });
}

export function spec(workspaceId: string, extra: Partial<Pick<SandboxSpec, 'network' | 'limits' | 'diskMb'>> = {}): SandboxSpec {
  return { workspaceId, teamId: 'team-test', ...extra };
}

export async function cleanup(prefix: string): Promise<void> {
  const filters = { label: ['h.test=1'] };
  const containers = await docker.listContainers({ all: true, filters });
  await Promise.all(
    containers
      .filter((c) => c.Names.some((n) => n.replace(/^\//, '').startsWith(prefix)))
      .map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)),
  );
  const { Volumes } = await docker.listVolumes({ filters });
  for (const v of Volumes ?? []) {
    if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove().catch(() => undefined);
  }
}

export async function inspect(record: SandboxRecord): Promise<Docker.ContainerInspectInfo> {
  return docker.getContainer(record.name).inspect();
}

/** Polls until `check` returns a truthy value (no fixed sleeps). */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs a command with `docker exec` (outside the protocol), e.g. to kill the daemon. */
export async function dockerExec(name: string, cmd: string[], user = '1000:1000'): Promise<string> {
  const exec = await docker.getContainer(name).exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true, User: user });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  const { PassThrough } = await import('node:stream');
  const out = new PassThrough();
  out.on('data', (b: Buffer) => chunks.push(b));
  docker.modem.demuxStream(stream, out, out);
  await new Promise((r) => stream.on('end', r));
  return Buffer.concat(chunks).toString('utf8');
}
