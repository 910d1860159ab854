import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppException } from './app.exception';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((c) => (c.startsWith(e.property) ? c.replace(e.property, path) : `${path}: ${c}`));
    return [...own, ...describe(e.children ?? [], path)];
  });
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
    transform: true,
    exceptionFactory: (errors) => AppException.badRequest('VALIDATION_FAILED', describe(errors).join('; ')),
  });
}
