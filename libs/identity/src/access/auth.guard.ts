import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppException, CSRF_HEADER, SESSION_COOKIE } from '@h/http';
import { AuthService } from '../auth/auth.service';
import { safeEqual } from '../auth/secrets';
import { ACCESS_KEY, AccessRequirement, BASIC_KEY, INSTANCE_ADMIN_KEY, PUBLIC_KEY, SCOPE_KEY, USER_ONLY_KEY } from './access.decorators';
import { AccessService } from './access.service';
import { type AccessGrant, type Principal, requireScope, type TokenScope } from './principal';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type AuthedRequest = Request & { principal?: Principal; access?: AccessGrant };

export function bearerFrom(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1];
}

/** The password of `Authorization: Basic base64(user:password)`: h2c clients send their API token there. */
export function basicPasswordFrom(header: string | undefined): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/]+={0,2})$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : undefined;
}

/**
 * The API token a request presents: a bearer token, or, where the route allows `basic`, a Basic
 * password. Only such routes read Basic: a browser replays Basic credentials by itself, so elsewhere
 * it would be a way around the CSRF check cookies get.
 */
export function apiTokenFrom(header: string | undefined, basic: boolean): string | undefined {
  return bearerFrom(header) ?? (basic ? basicPasswordFrom(header) : undefined);
}

/** Cookie-authenticated writes must echo the session's CSRF token (the h_csrf cookie) in a header. */
export function requireCsrf(req: Request, principal: Principal): void {
  if (principal.kind !== 'user' || SAFE_METHODS.has(req.method)) return;
  const sent = req.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !safeEqual(sent, principal.csrfToken)) {
    throw AppException.forbidden(`Missing or wrong ${CSRF_HEADER} header: send the value of the h_csrf cookie with every write.`, 'CSRF_FAILED');
  }
}

export const tokenNotAllowed = () => AppException.forbidden('API tokens cannot use this route; sign in in the browser.', 'TOKEN_NOT_ALLOWED');

// Global guard: every route is authenticated unless marked @Public(); cookie-authenticated writes
// must echo the CSRF token; API tokens must hold the route's scope (@Access / @Authenticated say
// which; a route that says none needs admin, so a forgotten declaration fails closed); team-scoped
// routes check the caller's role through AccessService.
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly access: AccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const basic = this.reflector.getAllAndOverride<boolean>(BASIC_KEY, targets) ?? false;
    const principal = await this.auth.authenticate({
      bearer: apiTokenFrom(req.headers.authorization, basic),
      sessionToken: req.cookies?.[SESSION_COOKIE],
    });
    if (!principal) {
      throw basic ? AppException.unauthorized('Send a valid API token: "Authorization: Bearer <token>", or Basic with the token as the password.') : AppException.unauthorized();
    }
    req.principal = principal;

    requireCsrf(req, principal);
    if (principal.kind === 'token' && this.reflector.getAllAndOverride<boolean>(USER_ONLY_KEY, targets)) throw tokenNotAllowed();
    if (this.reflector.getAllAndOverride<boolean>(INSTANCE_ADMIN_KEY, targets)) await this.access.requireInstanceAdmin(principal);
    const scope = this.reflector.getAllAndOverride<TokenScope>(SCOPE_KEY, targets) ?? 'admin';
    requireScope(principal, scope);
    const requirement = this.reflector.getAllAndOverride<AccessRequirement>(ACCESS_KEY, targets);
    if (requirement) {
      const id = req.params[requirement.param];
      req.access = await this.access.check(principal, requirement.resource, typeof id === 'string' ? id : undefined, requirement.role, scope);
    }
    return true;
  }
}
