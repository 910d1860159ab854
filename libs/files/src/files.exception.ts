import { type HttpErrorCode, WorkspaceError } from '@h/contracts';
import { QuotaExceededError } from '@h/db';
import { AppException, errorStatus } from '@h/http';
import { quotaExceeded } from '@h/identity';
import { isSandboxHostError } from '@h/sandbox';
import { RpcError } from '@h/sandbox-protocol';

// The file API's codes, and how a sandbox's answer (RpcError with data.code, or the
// WorkspaceError the driver raises) becomes one. The caller's path is in each message already
// (sandboxd words it with the path it was given, never the container's real one).

/** The file API's own codes (statuses and meanings in the registry, libs/contracts error-codes.ts). */
export type FilesErrorCode = Extract<
  HttpErrorCode,
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'IS_DIRECTORY'
  | 'NOT_DIRECTORY'
  | 'FILE_NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'EDIT_CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'FILE_TOO_LARGE'
  | 'PRECONDITION_REQUIRED'
  | 'WORKSPACE_DISK_FULL'
  | 'SANDBOX_UNAVAILABLE'
>;

export function filesError(code: FilesErrorCode, message: string, details?: Record<string, unknown>): AppException {
  return new AppException(errorStatus(code), code, message, {}, details);
}

/** A sandbox's refusal as the file API's answer; anything unknown stays a 5xx (a bug). */
export function fromSandboxError(err: unknown): unknown {
  if (err instanceof AppException) return err;
  if (err instanceof QuotaExceededError) return quotaExceeded(err);
  // Several Docker hosts: which one is down, or why none can take the workspace (503, named).
  if (isSandboxHostError(err)) return new AppException(errorStatus(err.code), err.code, err.message);
  const code = err instanceof RpcError ? err.data?.code : err instanceof WorkspaceError ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'PATH_OUTSIDE_WORKSPACE':
      return filesError('PATH_OUTSIDE_WORKSPACE', `${message}. Paths stay inside the workspace (symbolic links too).`);
    case 'NOT_FOUND':
      return filesError('FILE_NOT_FOUND', `${message}.`);
    case 'IS_DIRECTORY':
      return filesError('IS_DIRECTORY', `${message}.`);
    case 'NOT_DIRECTORY':
      return filesError('NOT_DIRECTORY', `${message}.`);
    case 'ALREADY_EXISTS':
      return filesError('ALREADY_EXISTS', `${message}.`);
    case 'TOO_LARGE':
      return filesError('FILE_TOO_LARGE', `${message} (SANDBOX_READ_MAX_BYTES).`);
    case 'INVALID_ARGUMENT':
      return AppException.badRequest('VALIDATION_FAILED', message);
    case 'UNAVAILABLE':
      return filesError('SANDBOX_UNAVAILABLE', 'The workspace sandbox is not reachable right now; try again in a moment.');
    case 'IO_ERROR':
      if (/No space left on device|disk budget/i.test(message)) return filesError('WORKSPACE_DISK_FULL', message);
      return err;
    default:
      return err;
  }
}
