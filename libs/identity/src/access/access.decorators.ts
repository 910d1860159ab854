import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiCookieAuth, ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { TeamRoleName } from '@h/db';
import { ErrorResponseDto } from '@h/http';
import type { AccessGrant, Principal } from './principal';

export const PUBLIC_KEY = 'h:public';
export const ACCESS_KEY = 'h:access';
export const USER_ONLY_KEY = 'h:user-only';

export interface AccessRequirement {
  /** Resource kind registered with ResourceResolverRegistry, e.g. 'team' or 'workspace'. */
  resource: string;
  /** Route parameter holding the resource id. */
  param: string;
  role: TeamRoleName;
}

/** No authentication: health checks, sign-up and login only. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/**
 * The route touches a team's data: the caller must be a member of the team owning
 * `:param` with at least `role`. Non-members get 404 (existence is not revealed), members
 * below the role get 403.
 */
export function Access(resource: string, param: string, role: TeamRoleName) {
  return applyDecorators(
    SetMetadata(ACCESS_KEY, { resource, param, role } satisfies AccessRequirement),
    ApiCookieAuth('cookie'),
    ApiBearerAuth('bearer'),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Not signed in' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: `Needs role ${role} or higher` }),
    ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Not found, or not a member of its team' }),
  );
}

/** Signed-in users with any role; API tokens are refused (they are bound to one team). */
export function UserOnly() {
  return applyDecorators(
    SetMetadata(USER_ONLY_KEY, true),
    ApiCookieAuth('cookie'),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Not signed in' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: 'API tokens cannot use this route' }),
  );
}

/** Any authenticated caller (cookie or token). */
export function Authenticated() {
  return applyDecorators(
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
