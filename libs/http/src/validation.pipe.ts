import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger/dist/constants';
import { AppException } from './app.exception';
import { findInputProblem, INPUT_LIMITS, parseQueryInteger } from './input-policy';

// Checks of a value's kind. When one of them fails, the property's other checks (length,
// pattern, range) say nothing useful: `{"name": 42}` is "name must be a string", not "name must
// not be blank".
const KIND_CHECKS = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isUUID', 'isIn', 'isEnum', 'isISO8601', 'isUrl', 'isEmail']);

/** One message per invalid property: its failed kind check, or else the first check it failed. */
function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const failed = Object.entries(e.constraints ?? {});
    const [check, message] = failed.find(([name]) => KIND_CHECKS.has(name)) ?? failed[0] ?? [];
    let own: string[] = [];
    if (check === 'whitelistValidation') own = [unknownField(path, e.target)];
    else if (message !== undefined) own = [message.startsWith(e.property) ? message.replace(e.property, path) : `${path}: ${message}`];
    return [...own, ...describe(e.children ?? [], path)];
  });
}

/** "x is not a field here": with the fields the object takes, from its DTO's documentation. */
function unknownField(path: string, target: object | undefined): string {
  const props: string[] = target ? (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, Object.getPrototypeOf(target)) ?? []) : [];
  const fields = props.map((p) => p.replace(/^:/, ''));
  return fields.length ? `${path} is not a field here; the fields are ${fields.join(', ')}` : `${path} is not a field here`;
}

const invalid = (message: string) => AppException.badRequest('VALIDATION_FAILED', message);

/** The DTO class a parameter is declared with, when it is one (not String, Object, …). */
function dtoClass(metadata: ArgumentMetadata): Type<unknown> | null {
  const t = metadata.metatype;
  return t && ![String, Boolean, Number, Array, Object].includes(t as never) ? t : null;
}

/** Swagger's record of a DTO property, which also says whether `null` is a documented value. */
function documented(dto: Type<unknown>, key: string): { nullable?: boolean } | undefined {
  return Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, key);
}

/**
 * The global pipe: the input policy (input-policy.ts) for every query and path parameter and
 * every DTO body, then class-validator. Two rules no DTO has to repeat:
 * - a query property declared `number` must be a plain decimal integer within the Postgres
 *   integer range ("0x10", "1e3", "+1", " 1", "-0", "" and 99999999999999999999 are refused);
 * - `null` is a value only where the property is documented `nullable`; elsewhere it is a 400
 *   (class-validator's @IsOptional would otherwise let it through to the database).
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = dtoClass(metadata);
    if (metadata.type === 'query' || metadata.type === 'param') {
      const where = metadata.type === 'param' ? `path parameter ${metadata.data ?? ''}`.trim() : (metadata.data ?? 'query');
      const problem = findInputProblem(value, where);
      if (problem) throw invalid(problem);
      if (metadata.type === 'query' && dto && value && typeof value === 'object') checkQueryIntegers(dto, value as Record<string, unknown>);
    } else if (metadata.type === 'body' && dto) {
      // HTTP bodies were checked by the body parser already; socket messages typed `unknown`
      // never get here (they are checked, and answered with an ack, by the gateway).
      const problem = findInputProblem(value, 'body');
      if (problem) throw invalid(problem);
      if (Array.isArray(value)) throw invalid('The request body must be a JSON object, not an array.');
      if (value && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          if (v === null && !documented(dto, key)?.nullable) throw invalid(`${key} must not be null; leave it out instead`);
        }
      }
    }
    return super.transform(value, metadata);
  }
}

function checkQueryIntegers(dto: Type<unknown>, query: Record<string, unknown>): void {
  for (const [key, text] of Object.entries(query)) {
    if (Reflect.getMetadata('design:type', dto.prototype, key) !== Number) continue;
    if (parseQueryInteger(text) === null) {
      throw invalid(`${key} must be a whole number from ${INPUT_LIMITS.minQueryInteger} to ${INPUT_LIMITS.maxQueryInteger}, in plain decimal digits`);
    }
  }
}

export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    // Every check of a property runs, so describe() can name the one that matters.
    // The object checked (never sent anywhere) lets describe() name the fields a route takes.
    validationError: { target: true, value: false },
    transform: true,
    exceptionFactory: (errors) => invalid(describe(errors).join('; ')),
  });
}
