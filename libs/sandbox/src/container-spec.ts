import type Docker from 'dockerode';
import type { SandboxLimits, SandboxRecord, SandboxSpec } from './sandbox-driver';

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

/** The record of an existing container (one whose record was never saved). */
export function recordFromContainer(spec: SandboxSpec, info: Docker.ContainerInspectInfo, prefix: string, network: string): SandboxRecord {
  const vol = info.Mounts.find((m) => m.Destination === '/workspace')?.Name ?? `${prefix}vol-${spec.workspaceId}`;
  return {
    driver: 'docker',
    workspaceId: spec.workspaceId,
    teamId: spec.teamId,
    name: info.Name.replace(/^\//, ''),
    volume: vol,
    containerId: info.Id,
    image: info.Config.Image,
    network: info.HostConfig.NetworkMode ?? network,
    limits: spec.limits,
    createdAt: info.Created,
  };
}

/** A warm-pool container's record: no workspace yet (a claim fills it in). */
export function poolRecord(name: string, volume: string, image: string, network: string): SandboxRecord {
  return { driver: 'docker', workspaceId: '', teamId: '', name, volume, image, network, createdAt: new Date().toISOString() };
}
