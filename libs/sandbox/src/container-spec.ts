import type Docker from 'dockerode';
import type { SandboxLimits, SandboxRecord } from './sandbox-driver';

export interface ContainerSpecInput {
  record: SandboxRecord;
  image: string;
  /** uid:gid */
  user: string;
  limits: SandboxLimits;
  labels: Record<string, string>;
  /** Host dir bind-mounted as the daemon's socket dir (direct connect); else a private tmpfs. */
  hostSocketDir?: string;
}

/**
 * The locked-down container of one workspace: its volume at /workspace, read-only root, tmpfs /tmp,
 * $HOME and socket dir, no capabilities, no-new-privileges, CPU/memory/pids limits, the record's
 * network mode, no Docker socket. Pure, so the policy can be checked without an engine.
 */
export function containerCreateOptions(input: ContainerSpecInput): Docker.ContainerCreateOptions {
  const { record, limits } = input;
  const [uid, gid] = input.user.split(':');
  const tmpfs: Record<string, string> = {
    '/tmp': `rw,nosuid,nodev,size=${limits.tmpBytes},mode=1777`,
    '/home/h': `rw,nosuid,nodev,size=${limits.homeBytes},uid=${uid},gid=${gid},mode=0755`,
  };
  const binds: string[] = [];
  if (input.hostSocketDir) binds.push(`${input.hostSocketDir}:/run/sandboxd`);
  else tmpfs['/run/sandboxd'] = `rw,nosuid,nodev,noexec,size=1m,uid=${uid},gid=${gid},mode=0700`;
  return {
    name: record.name,
    Image: input.image,
    User: input.user,
    WorkingDir: '/workspace',
    Env: ['HOME=/home/h', 'USER=h', 'SHELL=/bin/bash', 'SANDBOXD_ROOT=/workspace'],
    Labels: input.labels,
    HostConfig: {
      Mounts: [{ Type: 'volume', Source: record.volume, Target: '/workspace' }],
      Binds: binds,
      Tmpfs: tmpfs,
      NetworkMode: record.network,
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      NanoCpus: Math.round(limits.cpus * 1e9),
      Memory: limits.memoryBytes,
      // Equal to Memory: no swap, so the memory limit is a real limit.
      MemorySwap: limits.memoryBytes,
      PidsLimit: limits.pids,
      // If sandboxd dies (killed, OOM), tini exits and Docker brings the sandbox back.
      RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 5 },
      LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
    },
  };
}
