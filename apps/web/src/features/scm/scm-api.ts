// The Source Control routes (libs/scm) as the panel calls them; wire types from @h/contracts.
import type { GitBranchList, GitCommitResult, GitDiff, GitStatus } from '@h/contracts';
import { GIT_PATHS_MAX } from '@h/contracts/scm';
import { api } from '../../lib/api-client';

const base = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/git`;

export const scmPaths = {
  status: (workspaceId: string) => `${base(workspaceId)}/status`,
  branches: (workspaceId: string) => `${base(workspaceId)}/branches`,
  log: (workspaceId: string, limit: number, skip: number) => `${base(workspaceId)}/log?limit=${limit}&skip=${skip}`,
};

/** A whole group's paths in requests of at most GIT_PATHS_MAX each, one after the other. */
async function inBatches(route: string, paths: string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += GIT_PATHS_MAX) await api.post<GitStatus>(route, { paths: paths.slice(i, i + GIT_PATHS_MAX) });
}

export const scmApi = {
  init: (workspaceId: string) => api.post<GitStatus>(`${base(workspaceId)}/init`, {}),
  stage: (workspaceId: string, paths: string[]) => inBatches(`${base(workspaceId)}/stage`, paths),
  unstage: (workspaceId: string, paths: string[] | 'all') => (paths === 'all' ? api.post<GitStatus>(`${base(workspaceId)}/unstage`, { all: true }) : inBatches(`${base(workspaceId)}/unstage`, paths)),
  discard: (workspaceId: string, paths: string[]) => inBatches(`${base(workspaceId)}/discard`, paths),
  commit: (workspaceId: string, message: string, amend: boolean) => api.post<GitCommitResult>(`${base(workspaceId)}/commit`, { message, amend }),
  diff: (workspaceId: string, path: string, staged: boolean, originalPath?: string) =>
    api.get<GitDiff>(`${base(workspaceId)}/diff?path=${encodeURIComponent(path)}&staged=${staged}${originalPath ? `&originalPath=${encodeURIComponent(originalPath)}` : ''}`),
  createBranch: (workspaceId: string, name: string) => api.post<GitBranchList>(`${base(workspaceId)}/branches`, { name }),
  checkout: (workspaceId: string, branch: string) => api.post<GitStatus>(`${base(workspaceId)}/checkout`, { branch }),
};
