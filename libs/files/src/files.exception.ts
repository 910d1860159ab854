import { WorkspaceError } from '@h/contracts';
import { QuotaExceededError } from '@h/db';
import { AppException } from '@h/http';
import { quotaExceeded } from '@h/identity';
import { RpcError } from '@h/sandbox-protocol';

// The file API's error codes, and how a sandbox's answer (RpcError with data.code, or the
// WorkspaceError the driver raises) becomes one. The caller's path is in each message already
// (sandboxd words it with the path it was given, never the container's real one).
export const FILES_ERROR_CODES = {
  PATH_OUTSIDE_WORKSPACE: 400,
  IS_DIRECTORY: 400,
  NOT_DIRECTORY: 400,
  FILE_NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  EDIT_CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  FILE_TOO_LARGE: 413,
  PRECONDITION_REQUIRED: 428,
  WORKSPACE_DISK_FULL: 507,
  SANDBOX_UNAVAILABLE: 503,
} as const;
export type FilesErrorCode = keyof typeof FILES_ERROR_CODES;

export function filesError(code: FilesErrorCode, message: string, details?: Record<string, unknown>): AppException {
  return new AppException(FILES_ERROR_CODES[code], code, message, {}, details);
}

/** A sandbox's refusal as the file API's answer; anything unknown stays a 5xx (a bug). */
export function fromSandboxError(err: unknown): unknown {
  if (err instanceof AppException) return err;
  if (err instanceof QuotaExceededError) return quotaExceeded(err);
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
