import type Docker from 'dockerode';
import type { SandboxLimits, SandboxRecord, SandboxSpec } from './sandbox-driver';
import type { WorkspaceMount } from './workspace-storage';

/** Where a sandbox sees its workspace's egress socket dir (a read-only bind of the host's). */
export const EGRESS_SANDBOX_DIR = '/run/h/egress';
export const EGRESS_SANDBOX_SOCKET = `${EGRESS_SANDBOX_DIR}/egress.sock`;
/**
 * Where a sandbox sees the model gateway's socket dir (read-only): one socket per run of an engine
 * that calls its model from inside the sandbox (Claude Code), named by the run id. The dir is one
 * for all sandboxes, so warm containers have it too; a socket answers only its run's secret.
 */
export const MODEL_GATEWAY_SANDBOX_DIR = '/run/h/model';
/**
 * Where a sandbox sees its workspace's H-internal state volume (checkpoints): outside /workspace,
 * so never in the user's files or `git status`. The image has it owned by the sandbox user, so a
 * new volume starts writable (Docker copies the mount point's owner into an empty volume).
 */
export const STATE_SANDBOX_DIR = '/var/lib/h-state';

export interface ContainerSpecInput {
  record: SandboxRecord;
  image: string;
  /** uid:gid */
  user: string;
  limits: SandboxLimits;
  labels: Record<string, string>;
  /** What to mount at /workspace (default: the record's named volume). */
  workspace?: WorkspaceMount;
  /** The workspace's state volume, mounted at STATE_SANDBOX_DIR (default: none; checkpoints then die with the container). */
  stateVolume?: string;
  /** Host dir bind-mounted as the daemon's socket dir (direct connect); else a private tmpfs. */
  hostSocketDir?: string;
  /** Host dir holding this workspace's egress proxy socket; mounted only when record.network is 'egress'. */
  egressHostDir?: string;
  /** OCI runtime (e.g. runsc); default: the engine's. */
  runtime?: string;
  /** Host dir of the model gateway's run sockets; mounted read-only when set. */
  modelGatewayHostDir?: string;
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
  if (input.modelGatewayHostDir) binds.push(`${input.modelGatewayHostDir}:${MODEL_GATEWAY_SANDBOX_DIR}:ro`);
  if (record.diskMb) env.push(`SANDBOXD_DISK_MB=${record.diskMb}`);
  const ws = input.workspace ?? { type: 'volume', source: record.volume };
  const mounts: Docker.MountSettings[] = [{ Type: ws.type, Source: ws.source, Target: '/workspace' }];
  if (input.stateVolume) {
    mounts.push({ Type: 'volume', Source: input.stateVolume, Target: STATE_SANDBOX_DIR });
    env.push(`SANDBOXD_STATE_DIR=${STATE_SANDBOX_DIR}`);
  }
  return {
    name: record.name,
    Image: input.image,
    User: input.user,
    WorkingDir: '/workspace',
    Env: env,
    Labels: input.labels,
    HostConfig: {
      Mounts: mounts,
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
  const modelGateway = (info.HostConfig.Binds ?? []).some((b) => b.includes(`:${MODEL_GATEWAY_SANDBOX_DIR}`));
  return {
    driver: 'docker',
    workspaceId: spec.workspaceId,
    teamId: spec.teamId,
    name: info.Name.replace(/^\//, ''),
    volume,
    containerId: info.Id,
    image: info.Config.Image,
    network: egress ? 'egress' : 'none',
    ...(modelGateway ? { modelGateway } : {}),
    limits: spec.limits,
    ...(diskMb ? { diskMb } : {}),
    createdAt: info.Created,
  };
}

/** A warm-pool container's record: no workspace yet (a claim fills it in). */
export function poolRecord(name: string, volume: string, image: string, diskMb: number | undefined, modelGateway = false): SandboxRecord {
  return {
    driver: 'docker', workspaceId: '', teamId: '', name, volume, image, network: 'none',
    ...(modelGateway ? { modelGateway } : {}), ...(diskMb ? { diskMb } : {}), createdAt: new Date().toISOString(),
  };
}
