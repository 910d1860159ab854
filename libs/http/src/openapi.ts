import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@h/contracts';

// Declared once in the contracts, where the web reads them too.
export { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE };

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('H API')
    .setDescription(
      'REST API of H. Browsers authenticate with the `h_session` cookie and send the `h_csrf` cookie value ' +
        'back as the `x-csrf-token` header on writes; bots send `Authorization: Bearer <token>`. ' +
        'Every error is `{ "error": { "code", "message" } }`.',
    )
    .setVersion('1')
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'cookie')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token created under a team' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
  documentGuardParams(document);
  return document;
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
