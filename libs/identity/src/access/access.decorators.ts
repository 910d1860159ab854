import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiCookieAuth, ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiNotFoundResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { TeamRoleName } from '@h/db';
import { ErrorResponseDto, INSTANCE_ADMIN_EXTENSION, PUBLIC_EXTENSION, SCOPE_EXTENSION, USER_ONLY_EXTENSION } from '@h/http';
import { type AccessGrant, defaultScopeFor, type Principal, type TokenScope } from './principal';

export const PUBLIC_KEY = 'h:public';
export const ACCESS_KEY = 'h:access';
export const USER_ONLY_KEY = 'h:user-only';
/** The token scope a route needs (set by @Access and @Authenticated); routes without one need admin. */
export const SCOPE_KEY = 'h:scope';
/** The route also takes an API token as the password of `Authorization: Basic` (h2c clients). */
export const BASIC_KEY = 'h:basic';
/** The route is for the instance's admins (User.isInstanceAdmin), signed in in the browser. */
export const INSTANCE_ADMIN_KEY = 'h:instance-admin';

export interface AccessRequirement {
  /** Resource kind registered with ResourceResolverRegistry, e.g. 'team' or 'workspace'. */
  resource: string;
  /** Route parameter holding the resource id. */
  param: string;
  role: TeamRoleName;
}

export interface ScopeOption {
  /**
   * The token scope the route needs, when it is not the role's usual one (viewer → read, member →
   * write, admin and owner → admin): `run` for routes that drive the agent without editing
   * anything directly (messages, cancels, approvals).
   */
  scope?: TokenScope;
  /**
   * Also accept the token as the password of `Authorization: Basic` (user part ignored), as h2c
   * clients send it. Off elsewhere, so a browser's remembered Basic credentials never count.
   */
  basic?: boolean;
}

/** Declares the scope (and Basic) for the guard and the API docs (`x-required-scope`, see libs/http openapi.ts). */
function requiresScope(scope: TokenScope, basic = false) {
  const decorators = [SetMetadata(SCOPE_KEY, scope), ApiExtension(SCOPE_EXTENSION, scope)];
  if (basic) decorators.push(SetMetadata(BASIC_KEY, true), ApiBasicAuth('basic'));
  return applyDecorators(...decorators);
}

/** No authentication: health checks, sign-up and login only. */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_KEY, true), ApiExtension(PUBLIC_EXTENSION, true));

/**
 * The route touches a team's data: the caller must be a member of the team owning
 * `:param` with at least `role`, and an API token must hold the route's scope. Non-members get
 * 404 (existence is not revealed), members below the role get 403 FORBIDDEN, tokens without the
 * scope 403 INSUFFICIENT_SCOPE.
 */
export function Access(resource: string, param: string, role: TeamRoleName, options: ScopeOption = {}) {
  const scope = options.scope ?? defaultScopeFor(role);
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { resource, param, role } satisfies AccessRequirement),
    requiresScope(scope, options.basic),
    ApiCookieAuth('cookie'),
    ApiBearerAuth('bearer'),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Not signed in' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: `Needs role ${role} or higher (FORBIDDEN); an API token needs scope ${scope} (INSUFFICIENT_SCOPE)` }),
    ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Not found, or not a member of its team' }),
  );
}

/** Signed-in users with any role; API tokens are refused (they are bound to one team). */
export function UserOnly() {
  return applyDecorators(
    SetMetadata(USER_ONLY_KEY, true),
    ApiExtension(USER_ONLY_EXTENSION, true),
    ApiCookieAuth('cookie'),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Not signed in' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: 'API tokens cannot use this route' }),
  );
}

/**
 * The instance's admins only (the first account; User.isInstanceAdmin), in a browser session:
 * API tokens get 403 TOKEN_NOT_ALLOWED (a token belongs to one team, these routes see them all),
 * other signed-in people 403 INSTANCE_ADMIN_ONLY. 403 rather than 404, as for a member below a
 * team route's role: these routes exist on every instance, so there is nothing to hide.
 */
export function InstanceAdmin() {
  return applyDecorators(
    SetMetadata(USER_ONLY_KEY, true),
    SetMetadata(INSTANCE_ADMIN_KEY, true),
    ApiExtension(USER_ONLY_EXTENSION, true),
    ApiExtension(INSTANCE_ADMIN_EXTENSION, true),
    ApiCookieAuth('cookie'),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Not signed in' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not an instance admin (INSTANCE_ADMIN_ONLY), or an API token (TOKEN_NOT_ALLOWED)' }),
  );
}

/** Any authenticated caller (cookie, or a token with `scope`, by default read). */
export function Authenticated(options: ScopeOption = {}) {
  const scope = options.scope ?? 'read';
  return applyDecorators(
    requiresScope(scope, options.basic),
    ApiCookieAuth('cookie'),
    ApiBearerAuth('bearer'),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Not signed in' }),
  );
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest().principal;
});

export const CurrentAccess = createParamDecorator((_data: unknown, ctx: ExecutionContext): AccessGrant => {
  return ctx.switchToHttp().getRequest().access;
});

export const ClientIp = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | null => {
  const req = ctx.switchToHttp().getRequest();
  return req.ip ?? null;
});
