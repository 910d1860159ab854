import { join, resolve } from 'node:path';
import { AppConfig } from '@h/config';

// Host-side state under H_DATA_DIR/git (shared by the api and the worker, like the master key):
// per workspace a bare mirror for fetch and push and the ssh host keys seen; uploads waiting for
// the worker to unpack them.
export function gitDataDir(config: AppConfig): string {
  return join(resolve(config.env.H_DATA_DIR), 'git');
}

export function workspaceGitDir(config: AppConfig, workspaceId: string): string {
  return join(gitDataDir(config), 'workspaces', workspaceId);
}

export const mirrorDir = (config: AppConfig, workspaceId: string) => join(workspaceGitDir(config, workspaceId), 'mirror.git');
export const knownHostsFile = (config: AppConfig, workspaceId: string) => join(workspaceGitDir(config, workspaceId), 'known_hosts');
/** A checked, plain tar of an uploaded archive, waiting for the setup job. */
export const importSpoolFile = (config: AppConfig, workspaceId: string) => join(gitDataDir(config), 'imports', `${workspaceId}.tar`);
export const uploadTempDir = (config: AppConfig) => join(gitDataDir(config), 'uploads');
