import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppException } from '@h/http';
import type { AuthService } from '../auth/auth.service';
import { Authenticated } from './access.decorators';
import type { AccessService } from './access.service';
import { AuthGuard, basicPasswordFrom } from './auth.guard';
import type { Principal, TokenPrincipal } from './principal';

const TOKEN = 'h_k3m9x2p7q4wz_secret';

// Handlers only carry metadata here; the guard never calls them.
class Routes {
  @Authenticated({ scope: 'run', basic: true })
  h2c(): string {
    return 'h2c';
  }

  @Authenticated({ scope: 'run' })
  bearerOnly(): string {
    return 'bearer';
  }

  /** No access decorator at all. */
  undeclared(): string {
    return 'undeclared';
  }
}

function guardFor(scopes: string[]) {
  const seen: { bearer?: string }[] = [];
  const token: TokenPrincipal = { kind: 'token', userId: 'u', tokenId: 't', teamId: 'team', workspaceId: null, scopes };
  const auth = {
    authenticate: async (c: { bearer?: string }) => {
      seen.push(c);
      return c.bearer === TOKEN ? token : null;
    },
  } as unknown as AuthService;
  return { guard: new AuthGuard(new Reflector(), auth, {} as AccessService), seen };
}

function call(guard: AuthGuard, handler: keyof Routes, authorization: string): Promise<boolean> {
  const req = { method: 'POST', headers: { authorization }, params: {}, cookies: {} } as { principal?: Principal };
  const context = {
    getType: () => 'http',
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  return guard.canActivate(context);
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppException ? e.code : String(e)),
  );
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe(AuthGuard.name, () => {
  it('should read the API token from the password of a Basic header, whatever the user part', () => {
    expect(basicPasswordFrom(basic('anything', TOKEN))).toBe(TOKEN);
    expect(basicPasswordFrom(basic('', TOKEN))).toBe(TOKEN);
    // A colon in the password stays in it.
    expect(basicPasswordFrom(basic('u', 'a:b'))).toBe('a:b');
    const userOnly = `Basic ${Buffer.from('only-a-user').toString('base64')}`;
    expect([basicPasswordFrom(userOnly), basicPasswordFrom(basic('user', '')), basicPasswordFrom('Basic !!!'), basicPasswordFrom(`Bearer ${TOKEN}`), basicPasswordFrom(undefined)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('should take a Basic token only on routes that say so', async () => {
    const { guard, seen } = guardFor(['run']);
    expect(await codeOf(call(guard, 'h2c', basic('h2c', TOKEN)))).toBe('ok');
    expect(await codeOf(call(guard, 'bearerOnly', basic('h2c', TOKEN)))).toBe('UNAUTHENTICATED');
    expect(seen.map((c) => c.bearer)).toEqual([TOKEN, undefined]);
    expect(await codeOf(call(guard, 'bearerOnly', `Bearer ${TOKEN}`))).toBe('ok');
  });

  it("should refuse a token below the route's scope, and ask for admin where a route declares none", async () => {
    expect(await codeOf(call(guardFor(['read']).guard, 'h2c', basic('h2c', TOKEN)))).toBe('INSUFFICIENT_SCOPE');
    expect(await codeOf(call(guardFor(['write']).guard, 'undeclared', `Bearer ${TOKEN}`))).toBe('INSUFFICIENT_SCOPE');
    expect(await codeOf(call(guardFor(['admin']).guard, 'undeclared', `Bearer ${TOKEN}`))).toBe('ok');
  });
});
