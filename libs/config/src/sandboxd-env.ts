import { z } from 'zod';
import { hostEnv } from './host-env';

// sandboxd runs inside the workspace container, without the server's configuration: the driver
// sets these in the container spec (libs/sandbox/src/container-spec.ts) and the local driver in
// the child's environment. Kept free of Nest so esbuild bundles only this and zod into sandboxd
// (imported as `@h/config/sandboxd`).
const flag = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');

export const sandboxdEnvSchema = z.object({
  /** Unix socket the daemon listens on (`--socket` wins); default the protocol's DEFAULT_SOCKET_PATH. */
  SANDBOXD_SOCKET: z.string().min(1).optional(),
  /** The workspace root (`--root` wins); default the protocol's WORKSPACE_ROOT. */
  SANDBOXD_ROOT: z.string().min(1).optional(),
  /**
   * H's own per-workspace state dir (checkpoints), outside the workspace tree and kept across a
   * sandbox stop: the driver mounts the workspace's state volume there. Unset: ~/.h (lost on stop).
   */
  SANDBOXD_STATE_DIR: z.string().min(1).optional(),
  /**
   * Where the knowledge graph's snapshots (.kg/.txt) go; unset: ~/.h/snapshots, the seed's place
   * (the container user's home). The local driver sets it under the workspace's state dir, so the
   * host user's home does not collect one pair per workspace directory.
   */
  SANDBOXD_SNAPSHOT_DIR: z.string().min(1).optional(),
  /** The host egress proxy's socket, mounted only for workspaces with network access. */
  SANDBOXD_EGRESS_SOCKET: z.string().min(1).optional(),
  /** Loopback port the daemon offers the egress proxy on inside the container; default EGRESS_DEFAULT_PORT. */
  SANDBOXD_EGRESS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * The egress proxy as a URL reached over the pod network (the Kubernetes driver, whose
   * NetworkPolicy lets the pod reach only that proxy): offered to commands as HTTP(S)_PROXY as is.
   */
  SANDBOXD_EGRESS_URL: z.string().url().optional(),
  /** The workspace's disk budget in MiB, named in "disk full" messages; 0 = none. */
  SANDBOXD_DISK_MB: z.coerce.number().int().min(0).default(0),
  /** The ripgrep binary. */
  SANDBOXD_RG: z.string().min(1).default('rg'),
  /** 1: exit when the parent's IPC channel closes (the local driver). */
  SANDBOXD_EXIT_WITH_PARENT: flag.default(false),
});

export type SandboxdEnv = z.infer<typeof sandboxdEnvSchema>;

/** The daemon's settings, validated; a bad value ends startup with the variable's name. */
export function sandboxdEnv(source: Readonly<Record<string, string | undefined>> = hostEnv()): SandboxdEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([k, v]) => k.startsWith('SANDBOXD_') && v !== undefined && v !== ''));
  const result = sandboxdEnvSchema.safeParse(cleaned);
  if (!result.success) {
    throw new Error(`Invalid sandboxd environment: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return result.data;
}

export { hostEnv, pickHostEnv } from './host-env';
