// The one place the browser talks to the H API. The api process serves this app and /api/* on the
// same origin, so requests are relative and carry the session cookie without CORS.

import { CSRF_COOKIE, CSRF_HEADER } from '@h/contracts/identity-api';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    // The whole `error` object, for answers that carry more than code and message (EDIT_CONFLICT).
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  // Login and signup answer 401 for wrong credentials: the form shows it instead of redirecting.
  redirectOnUnauthorized?: boolean;
  // Extra request headers (e.g. If-Match for conditional file writes).
  headers?: Record<string, string>;
}

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

let signingOut = false;

/**
 * Logs out and goes to /login. While it does, a request that meets the ended session (the IDE's
 * polls, presence, git status) must not send the browser to /login?next=… first: it stays pending.
 */
export async function signOut(): Promise<void> {
  signingOut = true;
  try {
    // An already-expired session answers 401: it ends at the login page all the same.
    await apiRequest('POST', '/api/v1/auth/logout', { redirectOnUnauthorized: false }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status === 401)) throw err;
    });
    window.location.assign('/login');
  } catch (err) {
    signingOut = false;
    throw err;
  }
}

export function loginPathFor(location: { pathname: string; search: string }): string {
  const back = location.pathname + location.search;
  return back === '/' || back.startsWith('/login') ? '/login' : `/login?next=${encodeURIComponent(back)}`;
}

async function errorFrom(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } & Record<string, unknown> };
    if (body.error?.message) {
      return new ApiError(response.status, body.error.code ?? 'ERROR', body.error.message, body.error);
    }
  } catch {
    // Not JSON (for example a proxy error page): fall through to a generic message.
  }
  return new ApiError(response.status, 'HTTP_' + response.status, `The server answered ${response.status}. Please try again.`);
}

export async function apiRequest<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (WRITE_METHODS.has(method)) {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      cache: 'no-store',
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.');
  }

  if (response.status === 401 && options.redirectOnUnauthorized !== false) {
    if (!signingOut) window.location.assign(loginPathFor(window.location));
    // The page is leaving; never settle so callers do not flash an error meanwhile.
    return new Promise<T>(() => undefined);
  }
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T = void>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Please try again.';
}
