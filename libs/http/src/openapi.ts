import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, TOKEN_SCOPE_INFO, TOKEN_SCOPES, type TokenScope } from '@h/contracts';
import { fillFormatExamples } from './openapi-examples';

// Declared once in the contracts, where the web reads them too.
export { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE };

/** Operation extension: the API token scope the route needs (set by libs/identity's decorators). */
export const SCOPE_EXTENSION = 'x-required-scope';
/** Operation extension: no authentication at all (@Public). */
export const PUBLIC_EXTENSION = 'x-public';
/** Operation extension: browser sessions only, API tokens refused (@UserOnly). */
export const USER_ONLY_EXTENSION = 'x-user-only';
/** Operation extension: the instance's admins only, in a browser session (@InstanceAdmin). */
export const INSTANCE_ADMIN_EXTENSION = 'x-instance-admin';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('H API')
    .setDescription(
      'REST API of H. Browsers authenticate with the `h_session` cookie and send the `h_csrf` cookie value ' +
        'back as the `x-csrf-token` header on writes; bots send `Authorization: Bearer <token>`. ' +
        'Every error is `{ "error": { "code", "message" } }`, except on the h2c-compatible routes at the root ' +
        '(`/health`, `/v1/task*`, tag h2c), which answer h2c\'s `{ "error": "<code>" }` and also take the token as the password of `Authorization: Basic`.\n\n' +
        'An API token acts as its creator, within its scopes; each operation names the scope it needs ' +
        '(`x-required-scope`), and a token without it gets 403 `INSUFFICIENT_SCOPE`. Each scope includes the ones before it:\n\n' +
        TOKEN_SCOPES.map((s) => `- \`${s}\`: ${TOKEN_SCOPE_INFO[s].allows}`).join('\n'),
    )
    .setVersion('1')
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'cookie')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token created under a team' }, 'bearer')
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'h2c clients: any user name, an API token as the password' }, 'basic')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
  documentGuardParams(document);
  documentAuth(document);
  fillFormatExamples(document);
  return document;
}

function operations(document: OpenAPIObject): OperationObject[] {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).filter((v): v is OperationObject => !!v && typeof v === 'object' && 'responses' in v),
  );
}

/**
 * Says in every operation who may call it: `security` lists the ways in (none for public routes,
 * the cookie alone for browser-only routes), and the description ends with the token scope.
 */
function documentAuth(document: OpenAPIObject): void {
  for (const op of operations(document)) {
    const ext = op as OperationObject & Record<string, unknown>;
    let line: string;
    if (ext[PUBLIC_EXTENSION]) {
      op.security = [];
      delete ext[SCOPE_EXTENSION];
      line = 'No authentication.';
    } else if (ext[USER_ONLY_EXTENSION]) {
      op.security = [{ cookie: [] }];
      delete ext[SCOPE_EXTENSION];
      line = 'Browser session (cookie) only: API tokens get 403 `TOKEN_NOT_ALLOWED`.';
      if (ext[INSTANCE_ADMIN_EXTENSION]) line += " Instance admins only: others get 403 `INSTANCE_ADMIN_ONLY`.";
    } else {
      const scope = ext[SCOPE_EXTENSION] as TokenScope | undefined;
      if (!scope) continue; // undeclared: the openapi spec names it; the guard asks tokens for admin
      line = `Browser session (cookie), or an API token with scope \`${scope}\` (or one that includes it).`;
    }
    op.description = [op.description, `**Auth:** ${line}`].filter(Boolean).join('\n\n');
  }
}

/**
 * Path parameters that only the access guard reads (`@Access('team', 'teamId', …)`) have no
 * @Param, so Nest leaves them out of the document. The guard accepts nothing but a UUID there.
 */
function documentGuardParams(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const value of Object.values(item)) {
      if (!value || typeof value !== 'object' || !('responses' in value)) continue;
      const op = value as OperationObject;
      const params = (op.parameters ??= []);
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        if (params.some((p) => 'in' in p && p.in === 'path' && p.name === name)) continue;
        params.push({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
      }
    }
  }
}

export function setupOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/docs-json',
    useGlobalPrefix: false,
    customSiteTitle: 'H API',
  });
}
