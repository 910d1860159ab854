import { RPC_APP_ERROR, RpcError, type SandboxErrorCode } from '@h/sandbox-protocol';
import { diskFullMessage } from './disk-budget';

export function appError(code: SandboxErrorCode, message: string): RpcError {
  return new RpcError(RPC_APP_ERROR, message, { code });
}

export function fail(code: SandboxErrorCode, message: string): never {
  throw appError(code, message);
}

const ERRNO_CODES: Record<string, SandboxErrorCode> = {
  ENOENT: 'NOT_FOUND',
  EISDIR: 'IS_DIRECTORY',
  ENOTDIR: 'NOT_DIRECTORY',
  EEXIST: 'ALREADY_EXISTS',
  ENOTEMPTY: 'ALREADY_EXISTS',
  EFBIG: 'TOO_LARGE',
};

/** Maps Node fs errors to protocol errors without leaking the container's real paths. */
export function mapFsError(e: unknown, shownPath: string): never {
  if (e instanceof RpcError) throw e;
  const errno = (e as NodeJS.ErrnoException)?.code ?? '';
  if (errno === 'ENOSPC' || errno === 'EDQUOT') fail('IO_ERROR', `${shownPath}: ${diskFullMessage()}`);
  const code = ERRNO_CODES[errno] ?? 'IO_ERROR';
  const what =
    code === 'NOT_FOUND' ? 'no such file or directory'
    : code === 'IS_DIRECTORY' ? 'is a directory'
    : code === 'NOT_DIRECTORY' ? 'not a directory'
    : code === 'ALREADY_EXISTS' ? (errno === 'ENOTEMPTY' ? 'directory not empty' : 'already exists')
    : errno || (e instanceof Error ? e.message : 'I/O error');
  fail(code, `${shownPath}: ${what}`);
}
