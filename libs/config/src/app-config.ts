import { join, resolve } from 'node:path';
import type { SignupPolicy } from '@h/contracts/identity-api';
import { ConfigError, Env, parseEnv } from './env.schema';

// The config service: everything reads settings through this, never process.env directly.
export class AppConfig {
  constructor(readonly env: Env) {}

  static fromProcess(): AppConfig {
    return new AppConfig(parseEnv(process.env));
  }

  get isProduction(): boolean {
    return this.env.NODE_ENV === 'production';
  }

  get secureCookies(): boolean {
    return this.env.H_SECURE_COOKIES ?? this.isProduction;
  }

  /** Absolute dir of the local driver's workspaces (SANDBOX_LOCAL_DIR or <H_DATA_DIR>/workspaces). */
  get sandboxLocalDir(): string {
    return resolve(this.env.SANDBOX_LOCAL_DIR ?? join(this.env.H_DATA_DIR, 'workspaces'));
  }

  /** Absolute dir of the workspaces' disk images (SANDBOX_DISK_DIR or <H_DATA_DIR>/sandbox-disks). */
  get sandboxDiskDir(): string {
    return resolve(this.env.SANDBOX_DISK_DIR ?? join(this.env.H_DATA_DIR, 'sandbox-disks'));
  }

  /**
   * Absolute host dir of the sandboxes' daemon sockets (direct connections), or undefined for the
   * `docker exec` relay: SANDBOX_SOCKET_DIR, `off`, or by default <H_DATA_DIR>/sandbox-sockets
   * unless the engine is remote or proxied (DOCKER_HOST: compose's socket proxy only allows listed
   * dirs). The default also needs the engine to share this process's filesystem, which only the
   * engine can tell (SandboxManager asks it: `sandboxSocketDirIsDefault`).
   */
  get sandboxSocketDir(): string | undefined {
    const dir = this.env.SANDBOX_SOCKET_DIR;
    if (dir === 'off') return undefined;
    if (dir) return resolve(dir);
    if (this.env.DOCKER_HOST) return undefined;
    return resolve(join(this.env.H_DATA_DIR, 'sandbox-sockets'));
  }

  get sandboxSocketDirIsDefault(): boolean {
    return !this.env.SANDBOX_SOCKET_DIR;
  }

  /** Absolute dir of the egress proxy's per-workspace sockets (EGRESS_SOCKET_DIR or <H_DATA_DIR>/egress). */
  get egressSocketDir(): string {
    return resolve(this.env.EGRESS_SOCKET_DIR ?? join(this.env.H_DATA_DIR, 'egress'));
  }

  /**
   * Absolute dir of the model gateway's run sockets (MODEL_GATEWAY_SOCKET_DIR or
   * <H_DATA_DIR>/model-gateway), mounted into every sandbox; null when set to `off` (no mount, and
   * claude-code sessions cannot run).
   */
  get modelGatewaySocketDir(): string | null {
    if (this.env.MODEL_GATEWAY_SOCKET_DIR === 'off') return null;
    return resolve(this.env.MODEL_GATEWAY_SOCKET_DIR ?? join(this.env.H_DATA_DIR, 'model-gateway'));
  }

  /** SIGNUP_POLICY, else the deprecated SIGNUP_ENABLED, else open in development and invite elsewhere. */
  get signupPolicy(): SignupPolicy {
    if (this.env.SIGNUP_POLICY) return this.env.SIGNUP_POLICY;
    if (this.env.SIGNUP_ENABLED !== undefined) return this.env.SIGNUP_ENABLED ? 'open' : 'closed';
    return this.env.NODE_ENV === 'development' ? 'open' : 'invite';
  }

  get publicUrl(): string {
    return this.env.H_PUBLIC_URL ?? `http://localhost:${this.env.H_PORT}`;
  }
}

/**
 * Reads and validates the environment, or ends the process with a message naming each bad
 * variable (exit code 78, EX_CONFIG). Every process's main() starts here.
 */
export function loadConfigOrExit(): AppConfig {
  try {
    return AppConfig.fromProcess();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee .env.example for every variable.\n`);
      process.exit(78);
    }
    throw err;
  }
}
