// The Source Control routes (libs/scm) as the panel calls them; wire types from @h/contracts.
import type { GitBranchList, GitCommitResult, GitDiff, GitStatus } from '@h/contracts';
import { api } from '../../lib/api-client';

const base = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/git`;

export const scmPaths = {
  status: (workspaceId: string) => `${base(workspaceId)}/status`,
  branches: (workspaceId: string) => `${base(workspaceId)}/branches`,
  log: (workspaceId: string, limit: number, skip: number) => `${base(workspaceId)}/log?limit=${limit}&skip=${skip}`,
};

export const scmApi = {
  init: (workspaceId: string) => api.post<GitStatus>(`${base(workspaceId)}/init`, {}),
  stage: (workspaceId: string, paths: string[] | 'all') => api.post<GitStatus>(`${base(workspaceId)}/stage`, paths === 'all' ? { all: true } : { paths }),
  unstage: (workspaceId: string, paths: string[] | 'all') => api.post<GitStatus>(`${base(workspaceId)}/unstage`, paths === 'all' ? { all: true } : { paths }),
  discard: (workspaceId: string, paths: string[]) => api.post<GitStatus>(`${base(workspaceId)}/discard`, { paths }),
  commit: (workspaceId: string, message: string, amend: boolean) => api.post<GitCommitResult>(`${base(workspaceId)}/commit`, { message, amend }),
  diff: (workspaceId: string, path: string, staged: boolean, originalPath?: string) =>
    api.get<GitDiff>(`${base(workspaceId)}/diff?path=${encodeURIComponent(path)}&staged=${staged}${originalPath ? `&originalPath=${encodeURIComponent(originalPath)}` : ''}`),
  createBranch: (workspaceId: string, name: string) => api.post<GitBranchList>(`${base(workspaceId)}/branches`, { name }),
  checkout: (workspaceId: string, branch: string) => api.post<GitStatus>(`${base(workspaceId)}/checkout`, { branch }),
};
