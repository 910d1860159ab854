import type { Logger } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import type { Ack, ErrorBody } from '@h/contracts';
import { errorBody, findInputProblem, mapException } from '@h/http';
import type { AccessService, AuthService, Principal } from '@h/identity';
import { socketPrincipal } from './socket-principal';

/**
 * One client message of a workspace-scoped gateway (libs/files, libs/presence), answered as an
 * `Ack`: the socket's handshake authenticated again (a socket outlives its login: after a logout
 * or a revoked token it stops acting, as HTTP does), the input policy, then `work`; zod and app
 * errors become `{ ok: false, error }`, and only a 5xx is logged.
 */
export async function answerSocketMessage<T>(
  socket: Socket,
  body: unknown,
  deps: { auth: AuthService; logger: Logger; what: string },
  work: (principal: Principal) => Promise<T>,
): Promise<Ack<T>> {
  const who = await socketPrincipal(socket);
  const principal = who && (await deps.auth.authenticate(who.credentials));
  if (!principal) return { ok: false, ...errorBody('UNAUTHENTICATED', 'Not authenticated, or the session or API token this socket used has ended.') };
  const problem = findInputProblem(body, 'message');
  if (problem) return { ok: false, ...errorBody('VALIDATION_FAILED', problem) };
  try {
    return { ok: true, data: await work(principal) };
  } catch (err) {
    if (err instanceof z.ZodError) {
      return { ok: false, ...errorBody('VALIDATION_FAILED', err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')) };
    }
    const { status, code, message } = mapException(err);
    if (status >= 500) deps.logger.error({ err }, `${deps.what} socket handler failed`);
    return { ok: false, ...errorBody(code, message) };
  }
}

/**
 * The workspaces of `workspaceIds` this socket's caller may no longer read, each with why: the
 * credentials ended, or access is gone (removed from the team). A database hiccup is not a verdict.
 */
export async function lostWorkspaces(
  socket: Socket,
  workspaceIds: readonly string[],
  deps: { auth: AuthService; access: AccessService },
): Promise<{ workspaceId: string; error: ErrorBody['error'] }[]> {
  const who = await socketPrincipal(socket);
  const lost: { workspaceId: string; error: ErrorBody['error'] }[] = [];
  for (const workspaceId of workspaceIds) {
    try {
      const principal = who && (await deps.auth.authenticate(who.credentials));
      if (!principal) lost.push({ workspaceId, error: errorBody('UNAUTHENTICATED', 'The session or API token behind this socket has ended.').error });
      else await deps.access.check(principal, 'workspace', workspaceId, 'viewer');
    } catch (err) {
      const m = mapException(err);
      if (m.status < 500) lost.push({ workspaceId, error: { code: m.code, message: m.message } });
    }
  }
  return lost;
}
