import type Docker from 'dockerode';
import type { SandboxLimits, SandboxRecord, SandboxSpec } from './sandbox-driver';
import type { WorkspaceMount } from './workspace-storage';

/** Where a sandbox sees its workspace's egress socket dir (a read-only bind of the host's). */
export const EGRESS_SANDBOX_DIR = '/run/h/egress';
export const EGRESS_SANDBOX_SOCKET = `${EGRESS_SANDBOX_DIR}/egress.sock`;

export interface ContainerSpecInput {
  record: SandboxRecord;
  image: string;
  /** uid:gid */
  user: string;
  limits: SandboxLimits;
  labels: Record<string, string>;
  /** What to mount at /workspace (default: the record's named volume). */
  workspace?: WorkspaceMount;
  /** Host dir bind-mounted as the daemon's socket dir (direct connect); else a private tmpfs. */
  hostSocketDir?: string;
  /** Host dir holding this workspace's egress proxy socket; mounted only when record.network is 'egress'. */
  egressHostDir?: string;
  /** OCI runtime (e.g. runsc); default: the engine's. */
  runtime?: string;
}

/**
 * The locked-down container of one workspace: its volume at /workspace, read-only root, tmpfs /tmp,
 * $HOME and socket dir, no capabilities, no-new-privileges, CPU/memory/pids limits, no network
 * interface but loopback (always `none`, network access goes through the egress proxy's socket),
 * no Docker socket. Pure, so the policy can be checked without an engine.
 */
export function containerCreateOptions(input: ContainerSpecInput): Docker.ContainerCreateOptions {
  const { record, limits } = input;
  const [uid, gid] = input.user.split(':');
  const tmpfs: Record<string, string> = {
    '/tmp': `rw,nosuid,nodev,size=${limits.tmpBytes},mode=1777`,
    '/home/h': `rw,nosuid,nodev,size=${limits.homeBytes},uid=${uid},gid=${gid},mode=0755`,
  };
  const env = ['HOME=/home/h', 'USER=h', 'SHELL=/bin/bash', 'SANDBOXD_ROOT=/workspace'];
  const binds: string[] = [];
  if (input.hostSocketDir) binds.push(`${input.hostSocketDir}:/run/sandboxd`);
  else tmpfs['/run/sandboxd'] = `rw,nosuid,nodev,noexec,size=1m,uid=${uid},gid=${gid},mode=0700`;
  if (record.network === 'egress') {
    if (!input.egressHostDir) throw new Error('network "egress" needs the egress proxy socket dir');
    binds.push(`${input.egressHostDir}:${EGRESS_SANDBOX_DIR}:ro`);
    env.push(`SANDBOXD_EGRESS_SOCKET=${EGRESS_SANDBOX_SOCKET}`);
  }
  if (record.diskMb) env.push(`SANDBOXD_DISK_MB=${record.diskMb}`);
  const ws = input.workspace ?? { type: 'volume', source: record.volume };
  return {
    name: record.name,
    Image: input.image,
    User: input.user,
    WorkingDir: '/workspace',
    Env: env,
    Labels: input.labels,
    HostConfig: {
      Mounts: [{ Type: ws.type, Source: ws.source, Target: '/workspace' }],
      Binds: binds,
      Tmpfs: tmpfs,
      NetworkMode: 'none',
      ...(input.runtime ? { Runtime: input.runtime } : {}),
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
export function recordFromContainer(spec: SandboxSpec, info: Docker.ContainerInspectInfo, volume: string, diskMb: number | undefined): SandboxRecord {
  const egress = (info.HostConfig.Binds ?? []).some((b) => b.includes(`:${EGRESS_SANDBOX_DIR}`));
  return {
    driver: 'docker',
    workspaceId: spec.workspaceId,
    teamId: spec.teamId,
    name: info.Name.replace(/^\//, ''),
    volume,
    containerId: info.Id,
    image: info.Config.Image,
    network: egress ? 'egress' : 'none',
    limits: spec.limits,
    ...(diskMb ? { diskMb } : {}),
    createdAt: info.Created,
  };
}

/** A warm-pool container's record: no workspace yet (a claim fills it in). */
export function poolRecord(name: string, volume: string, image: string, diskMb: number | undefined): SandboxRecord {
  return { driver: 'docker', workspaceId: '', teamId: '', name, volume, image, network: 'none', ...(diskMb ? { diskMb } : {}), createdAt: new Date().toISOString() };
}
