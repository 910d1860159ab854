import type { Readable, Writable } from 'node:stream';
import type { SandboxClient } from './sandbox-client';

/** Which driver made a sandbox (SANDBOX_DRIVER). */
export type SandboxDriverKind = 'docker' | 'local' | 'kubernetes';

/** Resource limits of one sandbox. Defaults (DEFAULT_SANDBOX_LIMITS) suit a 2-core host running a few. */
export interface SandboxLimits {
  /** CPU share in cores (NanoCpus). */
  cpus: number;
  /** Memory limit; swap is disabled (memory+swap = memory). Includes tmpfs pages. */
  memoryBytes: number;
  /** Max processes/threads: a fork bomb hits this, not the host. */
  pids: number;
  /** Size of the /tmp tmpfs. */
  tmpBytes: number;
  /** Size of the $HOME tmpfs (caches of npm, pip, language servers). */
  homeBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpus: 1,
  memoryBytes: 1024 * 1024 * 1024,
  pids: 512,
  tmpBytes: 256 * 1024 * 1024,
  homeBytes: 256 * 1024 * 1024,
};

/** What the caller wants for a workspace. */
export interface SandboxSpec {
  workspaceId: string;
  teamId: string;
  /**
   * 'none' (default): no network at all. 'egress': still no network interface but loopback, plus
   * the host egress proxy's socket mounted into the sandbox (HTTP(S)_PROXY inside).
   */
  network?: SandboxNetwork;
  limits?: Partial<SandboxLimits>;
  /** Disk budget of /workspace in MiB (default: the driver's; 0 = none). Fixed when the volume is created. */
  diskMb?: number;
}

/** Every sandbox runs with Docker's `--network none`; 'egress' only adds the proxy socket. */
export type SandboxNetwork = 'none' | 'egress';

/**
 * Which sandbox belongs to which workspace: plain JSON for the caller to persist (the driver keeps
 * no durable state). Pass it back to every call. For the docker driver `name` is the container
 * name and `volume` the named volume at /workspace; for the local driver `volume` is a directory;
 * for the kubernetes driver `name` is the pod and `volume` the workspace's PVC.
 */
export interface SandboxRecord {
  driver: SandboxDriverKind;
  workspaceId: string;
  teamId: string;
  name: string;
  volume: string;
  containerId?: string;
  image?: string;
  /** 'none' | 'egress' (records from before the egress proxy may say 'bridge': re-created). */
  network: string;
  limits?: Partial<SandboxLimits>;
  /** The volume's disk budget (a loop-mounted image of this size); absent: a plain Docker volume. */
  diskMb?: number;
  createdAt: string;
  /** True when nothing isolates the sandbox from the host (local driver). */
  unsafe?: boolean;
  /** The container mounts the model gateway's socket dir (created with the driver's modelGatewaySocketDir). */
  modelGateway?: boolean;
  /** The Docker host it was placed on (SANDBOX_DOCKER_HOSTS); absent: the one engine. */
  host?: string;
}

/** A process started in a sandbox with its stdio attached to the host (see SandboxDriver.spawn). */
export interface SandboxProcess {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Resolves with the exit code once the process ended (null when it could not be read). */
  exited: Promise<number | null>;
  /** Ends the process and everything it started (TERM, then KILL after a grace period). */
  kill(): Promise<void>;
}

export interface SpawnOptions {
  /** Program and arguments, run without a shell. */
  argv: string[];
  /** Added to the sandbox's environment for this process only. */
  env?: Record<string, string>;
  /** Default /workspace. */
  cwd?: string;
}

export type SandboxState = 'running' | 'stopped' | 'restarting' | 'missing';

export interface SandboxStatus {
  state: SandboxState;
  driver: SandboxDriverKind;
  /** The local driver runs commands directly on the host: never true isolation. */
  unsafe: boolean;
  containerId?: string;
  image?: string;
  /** Exit code of the last run when stopped, if known. */
  exitCode?: number;
  oomKilled?: boolean;
}

export interface ReconcileReport {
  /** Containers that belonged to no known record and were removed. */
  removedContainers: string[];
  /** Unclaimed warm-pool containers adopted into this process's pool. */
  adoptedPool: string[];
  /** Volumes no record references (removed only with removeOrphanVolumes). */
  orphanVolumes: string[];
  removedVolumes: string[];
}

export interface SandboxDriver {
  readonly kind: SandboxDriverKind;
  readonly unsafe: boolean;
  /**
   * Returns a running sandbox for the workspace: the recorded one (started, or re-created on its
   * volume if its container vanished), else a warm-pool claim, else a cold create. Persist the
   * returned record.
   */
  ensure(spec: SandboxSpec, record?: SandboxRecord | null): Promise<SandboxRecord>;
  /** Starts a stopped sandbox and waits until its daemon answers. */
  start(record: SandboxRecord): Promise<SandboxRecord>;
  stop(record: SandboxRecord): Promise<void>;
  /** Removes the sandbox and (unless keepVolume) its files: call when the workspace is deleted. */
  remove(record: SandboxRecord, options?: { keepVolume?: boolean }): Promise<void>;
  status(record: SandboxRecord): Promise<SandboxStatus>;
  /** A connected client; starts the sandbox if needed. Reused while open. */
  connect(record: SandboxRecord): Promise<SandboxClient>;
  /**
   * Whether this process holds an open client to the sandbox: the daemon answered on it and the
   * stream has not closed since (a stopped, removed or restarted container closes it). No I/O.
   */
  isConnected(record: SandboxRecord): boolean;
  /** A warm sandbox re-assigned to the workspace, or null when the pool is empty/incompatible. */
  claimWarm(spec: SandboxSpec): Promise<SandboxRecord | null>;
  /** Startup: remove what no record knows, adopt leftover warm containers. */
  reconcile(known: SandboxRecord[]): Promise<ReconcileReport>;
  /** Stops the idle sweeper, drains the pool (removing warm containers) and closes clients. */
  close(): Promise<void>;
  /**
   * Starts a long-lived process in the sandbox with stdin/stdout/stderr streamed to the host (an
   * agent CLI speaking a stdio protocol). Absent where the driver cannot (the local driver).
   */
  spawn?(record: SandboxRecord, options: SpawnOptions): Promise<SandboxProcess>;
}
