import { fromSandboxError } from '@h/files';
import { AppException } from '@h/http';
import { RpcError } from '@h/sandbox-protocol';

// How sandboxd's answer about its browser becomes the socket's error (codes from the registry,
// libs/contracts error-codes.ts). A tab id sandboxd does not know reads as NOT_FOUND.
export function fromBrowserError(err: unknown): unknown {
  const code = err instanceof RpcError ? err.data?.code : undefined;
  if (code === 'NOT_FOUND' || code === 'NO_SUCH_TAB') return AppException.notFound('Tab');
  if (code === 'TOO_MANY_TABS') return new AppException(429, 'QUOTA_EXCEEDED', err instanceof Error ? err.message : 'Too many tabs; close one first.');
  if (code === 'TIMEOUT') return new AppException(408, 'REQUEST_TIMEOUT', err instanceof Error ? err.message : 'The page did not answer in time.');
  return fromSandboxError(err);
}
