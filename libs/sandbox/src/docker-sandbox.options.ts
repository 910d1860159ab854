import type Docker from 'dockerode';
import type { SandboxLimits } from './sandbox-driver';

/** What the Docker driver is built with (the worker's SandboxManager fills it from the config). */
export interface DockerSandboxOptions {
  /** Image tag, e.g. the output of ensureSandboxImage(). */
  image: string;
  docker?: Docker;
  /** Prefix of container and volume names (default 'h-'). Containers are `<prefix>ws-<workspaceId>`. */
  namePrefix?: string;
  /**
   * Host dir with one sub-dir per workspace holding the egress proxy's socket (libs/egress);
   * needed for specs with network 'egress'. Containers always run with Docker's network `none`.
   */
  egressSocketDir?: string;
  /**
   * Disk budgets: host dir of the workspaces' ext4 images (see LoopDiskStore; needs root). Unset:
   * named Docker volumes without a size limit.
   */
  diskDir?: string;
  /** Default budget in MiB for new workspace volumes when diskDir is set (default 2048). */
  diskMb?: number;
  /**
   * Host dir of the model gateway's run sockets (libs/claude-code), mounted read-only at
   * /run/h/model in every sandbox; a recorded sandbox without the mount is re-created on its volume.
   */
  modelGatewaySocketDir?: string;
  /** OCI runtime for sandboxes, e.g. 'runsc' (check it with probeRuntime first); default: the engine's. */
  runtime?: string;
  limits?: Partial<SandboxLimits>;
  /** Pre-started containers kept ready for new workspaces (default 0 = no pool). */
  poolSize?: number;
  /** Stop a sandbox after this long without requests (default 15 min; 0 = never). */
  idleTimeoutMs?: number;
  /** Called with the container name after the idle sweeper stopped a sandbox. */
  onIdleStop?: (name: string) => void;
  /** Added to every container and volume (e.g. { 'h.test': '1' }); reconcile only looks at these. */
  extraLabels?: Record<string, string>;
  /**
   * Host directory under which each sandbox's socket dir is bind-mounted; when set, clients connect
   * to the unix socket directly instead of through a `docker exec` bridge. Needs a local engine.
   */
  hostSocketDir?: string;
  /** uid:gid the daemon and all commands run as (the image's `h` user). */
  user?: string;
  /** Remove volumes no record references during reconcile (default false: data is precious). */
  removeOrphanVolumes?: boolean;
  /** Longest JSON-RPC line accepted from a sandbox (default HOST_RPC_MAX_LINE_BYTES). */
  rpcMaxLineBytes?: number;
  /** How long start waits for the daemon to answer. */
  readyTimeoutMs?: number;
}
