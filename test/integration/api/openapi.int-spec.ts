import { isRawBodyRoute, UNPREFIXED_ROUTES } from '@h/http';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { startStack, TestStack } from '../../support/api-harness';
import { TOKEN_SCOPES } from '@h/contracts';
import { bodyExampleProblems, MediaType } from './openapi-examples';
import { documentedRoutes, fetchDocument, OpenApiDocument, OpenApiOperation, OpenApiSchema, resolveSchema, routeKey } from './route-table';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

const GLOBAL_PREFIX = 'api';
const joinPath = (...parts: string[]) => '/' + parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
const toOpenApiPath = (expressPath: string) => expressPath.replace(/:(\w+)/g, '{$1}');

// The document must describe what the server really serves: routes come from the live express
// router and from Nest's controller metadata, never from a list kept by hand.
describe('OpenAPI document', () => {
  let stack: TestStack;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    stack = await startStack();
    doc = await fetchDocument(stack.url);
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** METHOD+path of every route registered on the express router, minus the docs' own pages. */
  function servedRoutes(): string[] {
    const router = stack.api.getHttpAdapter().getInstance().router as { stack: RouterLayer[] };
    return router.stack
      .filter((l): l is Required<RouterLayer> => !!l.route)
      .map((l) => ({ path: l.route.path, methods: Object.keys(l.route.methods) }))
      // Middleware mounted for every method (pino-http, the 404 handler) is not a route.
      .filter((r) => r.methods.length === 1 && !r.path.startsWith('/api/docs'))
      .map((r) => routeKey(r.methods[0], toOpenApiPath(r.path)));
  }

  /** Every controller handler Nest knows, with whether it reads a @Body(). */
  function controllerRoutes(): { key: string; takesBody: boolean }[] {
    const out: { key: string; takesBody: boolean }[] = [];
    for (const module of stack.api.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const ctrl = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
        if (!ctrl) continue;
        const base = [Reflect.getMetadata(PATH_METADATA, ctrl) ?? ''].flat()[0] as string;
        for (const name of Object.getOwnPropertyNames(ctrl.prototype)) {
          const handler = ctrl.prototype[name];
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          if (path === undefined || method === undefined) continue;
          const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctrl, name) ?? {}) as Record<string, unknown>;
          const takesBody = Object.keys(args).some((k) => Number(k.split(':')[0]) === RouteParamtypes.BODY);
          const route = joinPath(base, [path].flat()[0]);
          const prefix = UNPREFIXED_ROUTES.includes(route.slice(1)) ? '' : GLOBAL_PREFIX;
          out.push({ key: routeKey(RequestMethod[method], toOpenApiPath(joinPath(prefix, route))), takesBody });
        }
      }
    }
    return out;
  }

  function objectSchema(schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
    const resolved = resolveSchema(doc, schema);
    return resolved?.type === 'array' ? resolveSchema(doc, resolved.items) : resolved;
  }

  it('should list exactly the routes the server serves', () => {
    const served = servedRoutes().sort();
    const fromNest = controllerRoutes().map((r) => r.key).sort();
    const documented = documentedRoutes(doc).map((r) => r.key).sort();
    expect(served.length).toBeGreaterThan(15);
    expect(fromNest).toEqual(served);
    expect(documented).toEqual(served);
  });

  it('should give every operation a unique operationId', () => {
    const ids = documentedRoutes(doc).map((r) => r.op.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should describe the JSON answer of every operation at its success status', () => {
    const missing: string[] = [];
    for (const { key, op } of documentedRoutes(doc)) {
      const success = Object.keys(op.responses ?? {}).filter((s) => /^2\d\d$/.test(s)).sort()[0];
      if (!success) {
        missing.push(`${key}: no 2xx response`);
        continue;
      }
      if (success === '204') continue;
      const content = op.responses?.[success]?.content ?? {};
      // A server-sent event stream is text, not one JSON document; it must still say what it sends.
      if (content['text/event-stream']) {
        if (!content['text/event-stream'].schema) missing.push(`${key}: event stream without a schema`);
        continue;
      }
      // A raw file read answers the file's bytes; it must say so.
      if (content['application/octet-stream']) {
        if ((content['application/octet-stream'].schema as { format?: string } | undefined)?.format !== 'binary') missing.push(`${key}: raw answer without format binary`);
        continue;
      }
      // A plain-text answer (a run's diff as text/x-diff) is one string; it must say so.
      const text = Object.keys(content).find((type) => type.startsWith('text/'));
      if (text && !content['application/json']) {
        if ((content[text].schema as { type?: string } | undefined)?.type !== 'string') missing.push(`${key}: ${text} answer without a string schema`);
        continue;
      }
      const schema = objectSchema(content['application/json']?.schema);
      if (!schema?.properties || !Object.keys(schema.properties).length) missing.push(`${key}: ${success} has no JSON schema with properties`);
    }
    expect(missing).toEqual([]);
  });

  it('should give every route that reads a body a JSON request schema with its required fields', () => {
    const routes = controllerRoutes();
    expect(routes.filter((r) => r.takesBody).length).toBeGreaterThan(5);
    const byKey = new Map(documentedRoutes(doc).map((r) => [r.key, r.op]));
    const problems: string[] = [];
    for (const { key, takesBody } of routes) {
      const op = byKey.get(key);
      const schema = objectSchema(op?.requestBody?.content?.['application/json']?.schema);
      if (takesBody && !schema?.properties) problems.push(`${key}: reads a body but documents no JSON request schema`);
      // Upload routes take a raw body, parsed by libs/http (RAW_BODY_ROUTES) instead of @Body().
      const rawBody = op?.requestBody && !op.requestBody.content?.['application/json'];
      if (rawBody && !isRawBodyRoute({ originalUrl: key.split(' ')[1].replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000') } as never)) {
        problems.push(`${key}: documents a non-JSON body but is not in RAW_BODY_ROUTES`);
      }
      if (!takesBody && op?.requestBody && !rawBody) problems.push(`${key}: documents a body it never reads`);
    }
    expect(problems).toEqual([]);
  });

  it('should give every request body and success answer an example', () => {
    const problems: string[] = [];
    for (const { key, op } of documentedRoutes(doc)) {
      const body = op.requestBody as { content?: Record<string, MediaType> } | undefined;
      for (const p of bodyExampleProblems(doc, body?.content)) problems.push(`${key} request ${p}`);
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        if (!/^2\d\d$/.test(status)) continue;
        for (const p of bodyExampleProblems(doc, (res as { content?: Record<string, MediaType> }).content)) problems.push(`${key} ${status} ${p}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('should say for every operation how to authenticate and which token scope it needs', () => {
    const schemes = Object.keys((doc as { components?: { securitySchemes?: object } }).components?.securitySchemes ?? {}).sort();
    expect(schemes).toEqual(['basic', 'bearer', 'cookie']);
    const problems: string[] = [];
    for (const { key, op } of documentedRoutes(doc)) {
      const ext = op as OpenApiOperation & { security?: Record<string, string[]>[]; description?: string; [k: string]: unknown };
      const scope = ext['x-required-scope'];
      const ways = (ext.security ?? []).flatMap((s) => Object.keys(s));
      if (!ext.security) {
        problems.push(`${key}: no security (declare @Public, @UserOnly, @Authenticated or @Access)`);
        continue;
      }
      if (ways.some((w) => !schemes.includes(w))) problems.push(`${key}: unknown security scheme in ${ways.join(', ')}`);
      if (!ways.length) {
        if (!ext['x-public'] || scope !== undefined) problems.push(`${key}: empty security but not public`);
        if (!ext.description?.includes('No authentication')) problems.push(`${key}: public without saying so`);
        continue;
      }
      const tokens = ways.includes('bearer') || ways.includes('basic');
      if (tokens && !(TOKEN_SCOPES as readonly unknown[]).includes(scope)) problems.push(`${key}: tokens may call it but x-required-scope is ${String(scope)}`);
      if (tokens && !ext.description?.includes(`scope \`${String(scope)}\``)) problems.push(`${key}: description does not name scope ${String(scope)}`);
      if (!tokens && scope !== undefined) problems.push(`${key}: cookie-only route with x-required-scope ${String(scope)}`);
      if (!tokens && !ext.description?.includes('TOKEN_NOT_ALLOWED')) problems.push(`${key}: cookie-only route without saying tokens are refused`);
    }
    expect(problems).toEqual([]);
  });

  it('should serve the interactive docs UI with its assets at /api/docs', async () => {
    const page = await fetch(`${stack.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => new URL(m[1], `${stack.url}/api/docs`).href);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const res = await fetch(asset);
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
    }
  });
});
