import { WorkspaceError } from '@h/contracts';
import { QuotaExceededError } from '@h/db';
import { AppException } from '@h/http';
import { quotaExceeded } from '@h/identity';
import { RpcError } from '@h/sandbox-protocol';

// The file API's error codes, and how a sandbox's answer (RpcError with data.code, or the
// WorkspaceError the driver raises) becomes one. The caller's path is in each message already
// (sandboxd words it with the path it was given, never the container's real one).
// Statuses and meanings, ready for the error-code registry of libs/contracts once it lands.
export const FILES_ERROR_CODES = {
  PATH_OUTSIDE_WORKSPACE: { status: 400, description: 'A file path leaves the workspace: "..", a leading "/", or a symbolic link that points outside.' },
  IS_DIRECTORY: { status: 400, description: 'The path names a directory where a file is needed (or a directory delete without recursive=true).' },
  NOT_DIRECTORY: { status: 400, description: 'The path names a file where a directory is needed.' },
  FILE_NOT_FOUND: { status: 404, description: 'No file or directory at that path in the workspace.' },
  ALREADY_EXISTS: { status: 409, description: 'Something is already at that path (create, move).' },
  EDIT_CONFLICT: { status: 409, description: 'The file is not the version If-Match names; the body carries current and yours.' },
  PRECONDITION_FAILED: { status: 412, description: 'If-Match: * but there is no file to overwrite.' },
  FILE_TOO_LARGE: { status: 413, description: 'An upload over FILE_UPLOAD_MAX_BYTES, or a read over SANDBOX_READ_MAX_BYTES.' },
  PRECONDITION_REQUIRED: { status: 428, description: 'A write over an existing file without If-Match.' },
  WORKSPACE_DISK_FULL: { status: 507, description: "The workspace's disk budget (SANDBOX_DISK_MB) is used up." },
  SANDBOX_UNAVAILABLE: { status: 503, description: 'The workspace sandbox cannot be reached or started right now.' },
} as const;
export type FilesErrorCode = keyof typeof FILES_ERROR_CODES;

export function filesError(code: FilesErrorCode, message: string, details?: Record<string, unknown>): AppException {
  return new AppException(FILES_ERROR_CODES[code].status, code, message, {}, details);
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
