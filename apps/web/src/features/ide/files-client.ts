// The IDE's calls to the file API (libs/files: /api/v1/workspaces/:id/files/...). Paths travel as
// the `path` query parameter, exactly as the controller documents them.
import type { EditConflictBody, FileContent, FileTree, FileWriteResult } from '@h/contracts';
import { CSRF_COOKIE, CSRF_HEADER } from '@h/contracts/identity-api';
import { ApiError, api, readCookie } from '../../lib/api-client';

const base = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/files`;
const q = (path: string) => `path=${encodeURIComponent(path)}`;

export type EditConflict = EditConflictBody['error'];

/** The server's 409 EDIT_CONFLICT with both versions, or null for any other error. */
export function editConflictOf(error: unknown): EditConflict | null {
  if (error instanceof ApiError && error.status === 409 && error.code === 'EDIT_CONFLICT' && error.details) {
    return error.details as unknown as EditConflict;
  }
  return null;
}

export const filesClient = {
  list: (workspaceId: string, dir: string, signal?: AbortSignal) =>
    api.get<FileTree>(`${base(workspaceId)}/tree${dir ? `?${q(dir)}` : ''}`, { signal }),
  /** Every path below the root (skipped directories such as node_modules are not entered). */
  listAll: (workspaceId: string, signal?: AbortSignal) => api.get<FileTree>(`${base(workspaceId)}/tree?recursive=true`, { signal }),
  read: (workspaceId: string, path: string, signal?: AbortSignal) => api.get<FileContent>(`${base(workspaceId)}/text?${q(path)}`, { signal }),
  /** Writes over the version `etag` names (`*`: whatever is there; null: create only). */
  write: (workspaceId: string, path: string, content: string, etag: string | null) =>
    api.put<FileWriteResult>(`${base(workspaceId)}/content?${q(path)}`, { content }, etag ? { headers: { 'if-match': etag } } : undefined),
  create: (workspaceId: string, path: string, type: 'file' | 'directory') =>
    api.post<{ path: string; type: 'file' | 'directory'; etag?: string }>(`${base(workspaceId)}?${q(path)}`, { type }),
  move: (workspaceId: string, from: string, to: string) => api.post<{ path: string; from: string }>(`${base(workspaceId)}/move`, { from, to }),
  remove: (workspaceId: string, path: string, recursive: boolean) =>
    api.delete(`${base(workspaceId)}?${q(path)}${recursive ? '&recursive=true' : ''}`),
  /** Raw-body upload (the api client sends JSON only). Never overwrites: an existing file answers 428. */
  async upload(workspaceId: string, path: string, file: Blob): Promise<FileWriteResult> {
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/octet-stream' };
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
    let response: Response;
    try {
      response = await fetch(`${base(workspaceId)}/upload?${q(path)}`, { method: 'POST', headers, body: file, credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.');
    }
    const body = (await response.json().catch(() => null)) as (FileWriteResult & { error?: { code: string; message: string } }) | null;
    if (!response.ok) {
      throw new ApiError(response.status, body?.error?.code ?? `HTTP_${response.status}`, body?.error?.message ?? `The upload failed (${response.status}).`);
    }
    return body as FileWriteResult;
  },
};

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}
