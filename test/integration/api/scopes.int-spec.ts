import { TOKEN_SCOPES, type TokenScope } from '@h/contracts';
import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { documentedRoutes, fetchDocument, OpenApiDocument, requiredScope, ROUTES, sendRoute } from './route-table';
import { bearerClient, createToken, errorCode, TeamFixture, teamWithRoles } from './team-fixture';

// Generated from route-table.ts: every route an API token may use is called with a token of
// each scope below the one it needs (403 INSUFFICIENT_SCOPE naming that scope) and with a token of
// exactly that scope (the route's success). The tokens are the owner's, so their role never stands
// in the way: only the scope differs.
describe('token scopes on every route', () => {
  let stack: TestStack;
  let f: TeamFixture;
  let doc: OpenApiDocument;
  const tokens = new Map<TokenScope, HttpClient>();
  // The MCP endpoint takes only workspace-bound tokens (a team-wide one is 403 TOKEN_NOT_WORKSPACE_BOUND).
  const boundTokens = new Map<TokenScope, HttpClient>();
  const tokenFor = (kind: string, scope: TokenScope) => (kind === 'mcp' ? boundTokens : tokens).get(scope) as HttpClient;
  const tokenRoutes = Object.entries(ROUTES).flatMap(([key, spec]) => {
    const scope = requiredScope(spec.access);
    return scope ? [{ key, spec, scope }] : [];
  });

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'scopes');
    doc = await fetchDocument(stack.url);
    for (const scope of TOKEN_SCOPES) {
      const { secret } = await createToken(f.owner, f.teamId, { name: `scope-${scope}`, scopes: [scope] });
      tokens.set(scope, bearerClient(stack.url, secret));
      const bound = await createToken(f.owner, f.teamId, { name: `bound-${scope}`, scopes: [scope], workspaceId: f.workspaceId });
      boundTokens.set(scope, bearerClient(stack.url, bound.secret));
    }
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should document in x-required-scope the scope each table entry says, and none where tokens are refused', () => {
    const documented = new Map(documentedRoutes(doc).map((r) => [r.key, (r.op as Record<string, unknown>)['x-required-scope'] ?? null]));
    const table = Object.entries(ROUTES).map(([key, spec]) => [key, requiredScope(spec.access)]);
    expect(table.filter(([key, scope]) => documented.get(key as string) !== scope)).toEqual([]);
  });

  it('should cover routes of every scope', () => {
    expect(new Set(tokenRoutes.map((r) => r.scope))).toEqual(new Set(TOKEN_SCOPES));
  });

  describe.each(tokenRoutes)('$key (needs $scope)', ({ key, spec, scope }) => {
    it(`should refuse every scope below ${scope} with 403 INSUFFICIENT_SCOPE and let ${scope} itself through`, async () => {
      // One valid request, sent first with each weaker token (refused, so it changes nothing).
      const req = await spec.prepare(f, f.owner);
      const lower = TOKEN_SCOPES.slice(0, TOKEN_SCOPES.indexOf(scope));
      for (const weaker of lower) {
        const res = await sendRoute(tokenFor(spec.access.kind, weaker), key, spec, req);
        // h2c routes answer in h2c's shape: `{ error: "insufficient_scope", message }`.
        const h2c = spec.access.kind === 'h2c';
        expect({ weaker, status: res.status, code: res.status === 403 ? errorCode(res) : res.text.slice(0, 200) }).toEqual({ weaker, status: 403, code: h2c ? 'insufficient_scope' : 'INSUFFICIENT_SCOPE' });
        expect(h2c ? res.body.message : res.body.error.message).toContain(`the ${scope} scope`);
      }
      const res = await sendRoute(tokenFor(spec.access.kind, scope), key, spec, req);
      expect({ scope, status: res.status, text: res.text.slice(0, 200) }).toMatchObject({ status: spec.success });
    });
  });
});
