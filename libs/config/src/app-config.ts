import { join, resolve } from 'node:path';
import { ConfigError, Env, parseEnv } from './env.schema';

export type SignupPolicy = 'open' | 'invite' | 'closed';

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

  /** Absolute dir of the egress proxy's per-workspace sockets (EGRESS_SOCKET_DIR or <H_DATA_DIR>/egress). */
  get egressSocketDir(): string {
    return resolve(this.env.EGRESS_SOCKET_DIR ?? join(this.env.H_DATA_DIR, 'egress'));
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
