import { fromSandboxError } from '@h/files';
import { AppException, errorStatus } from '@h/http';
import { RpcError } from '@h/sandbox-protocol';

// How a sandbox's answer about a terminal becomes the socket's error (codes from the registry,
// libs/contracts error-codes.ts); path and sandbox errors read as the file API's do.

export function terminalNotFound(): AppException {
  return AppException.notFound('Terminal');
}

export function fromTerminalError(err: unknown, max: number): unknown {
  const code = err instanceof RpcError ? err.data?.code : undefined;
  if (code === 'NO_SUCH_PTY') return terminalNotFound();
  if (code === 'TOO_MANY_PTYS') {
    return new AppException(
      errorStatus('QUOTA_EXCEEDED'),
      'QUOTA_EXCEEDED',
      `This workspace has ${max} terminals open, the most it may (TERMINALS_PER_WORKSPACE_MAX); close one first.`,
    );
  }
  return fromSandboxError(err);
}
