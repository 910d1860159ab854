import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppException } from './app.exception';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((c) => (c.startsWith(e.property) ? c.replace(e.property, path) : `${path}: ${c}`));
    return [...own, ...describe(e.children ?? [], path)];
  });
}

// class-transformer silently drops these keys (prototype-pollution guard), so forbidNonWhitelisted
// never sees them and a body carrying one was accepted; refuse them like any other unknown field.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function forbiddenKey(value: unknown, path = '', depth = 0): string | null {
  if (!value || typeof value !== 'object' || depth > 32) return null;
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) return here;
    const nested = forbiddenKey((value as Record<string, unknown>)[key], here, depth + 1);
    if (nested) return nested;
  }
  return null;
}

class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      const key = forbiddenKey(value);
      if (key) throw AppException.badRequest('VALIDATION_FAILED', `property ${key} should not exist`);
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
    transform: true,
    exceptionFactory: (errors) => AppException.badRequest('VALIDATION_FAILED', describe(errors).join('; ')),
  });
}
