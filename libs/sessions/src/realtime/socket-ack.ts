import type { Logger } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import type { Ack, ErrorBody } from '@h/contracts';
import { errorBody, findInputProblem, mapException } from '@h/http';
import type { AccessService, AuthService, Principal } from '@h/identity';
import { socketPrincipal } from './socket-principal';

/**
 * The answer to one client message of a gateway on /api/socket.io (live files, terminals): the
 * caller authenticated again (a socket outlives its login: after a logout or a revoked token it
 * stops acting, as HTTP does), the input policy applied, and a refusal in the one error shape.
 * `trusted` skips the session lookup for a caller checked moments ago (keystrokes).
 */
export async function ackMessage<T>(
  socket: Socket,
  auth: AuthService,
  body: unknown,
  work: (principal: Principal) => Promise<T>,
  log: { logger: Logger; what: string; trusted?: boolean },
): Promise<Ack<T>> {
  const who = await socketPrincipal(socket);
  const principal = who && (log.trusted ? who.principal : await auth.authenticate(who.credentials));
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
    if (status >= 500) log.logger.error({ err }, log.what);
    return { ok: false, ...errorBody(code, message) };
  }
}

/** Why this socket's caller may no longer watch the workspace, or null (a database hiccup is not a verdict). */
export async function lostWorkspaceAccess(socket: Socket, auth: AuthService, access: AccessService, workspaceId: string): Promise<ErrorBody['error'] | null> {
  try {
    const who = await socketPrincipal(socket);
    const principal = who && (await auth.authenticate(who.credentials));
    if (!principal) return errorBody('UNAUTHENTICATED', 'The session or API token behind this socket has ended.').error;
    await access.check(principal, 'workspace', workspaceId, 'viewer');
    return null;
  } catch (err) {
    const m = mapException(err);
    return m.status < 500 ? { code: m.code, message: m.message } : null;
  }
}
