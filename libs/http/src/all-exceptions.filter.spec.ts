import { BadRequestException, InternalServerErrorException, ServiceUnavailableException } from '@nestjs/common';
import { AppException } from './app.exception';
import { mapException } from './all-exceptions.filter';

const INTERNAL = /10\.0\.0\.5|5432|ECONNREFUSED|relation|SELECT|docker|password authentication/i;

describe(mapException.name, () => {
  it('should answer a generic message, never the text of a library or driver error, for every 5xx', () => {
    const errors = [
      new InternalServerErrorException('connect ECONNREFUSED 10.0.0.5:5432'),
      new ServiceUnavailableException('password authentication failed for user "h"'),
      Object.assign(new Error('relation "User" does not exist'), { code: 'P2010', meta: { query: 'SELECT 1' } }),
      new Error('(HTTP code 500) server error - docker daemon is not running'),
    ];
    for (const err of errors) {
      const mapped = mapException(err);
      expect(mapped.status).toBeGreaterThanOrEqual(500);
      expect(mapped.message).not.toMatch(INTERNAL);
      expect(mapped.code).toBe('INTERNAL');
    }
  });

  it("should keep the caller's own 4xx messages and the messages H wrote itself", () => {
    expect(mapException(new BadRequestException('name must be a string')).message).toBe('name must be a string');
    expect(mapException(AppException.conflict('LAST_OWNER', 'A team needs an owner.')).message).toBe('A team needs an owner.');
    expect(mapException(Object.assign(new Error('Unique constraint failed on (email)'), { code: 'P2002' }))).toMatchObject({
      status: 409,
      message: 'That already exists.',
    });
  });
});


// The second line behind the input policy: database refusals of a value map to 400, not 500.
describe(`${mapException.name} (database refusals)`, () => {
  const adapterError = (sqlState: string) =>
    Object.assign(new Error('Database error'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2039',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: sqlState, kind: 'postgres' } } },
    });

  it('should answer 400 VALIDATION_FAILED when Postgres refuses a value (SQLSTATE class 22)', () => {
    for (const state of ['22021', '22P05', '22003', '22001']) {
      expect(mapException(adapterError(state))).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', log: 'warn' });
    }
  });

  it('should answer 400 when Prisma refuses an argument or a value out of range', () => {
    const validation = Object.assign(new Error('Unable to fit value 1e+20 into a 64-bit signed integer'), { name: 'PrismaClientValidationError' });
    expect(mapException(validation)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(mapException(Object.assign(new Error('out of range'), { code: 'P2020' }))).toMatchObject({ status: 400 });
  });

  it('should answer 400 for URIError and for http-errors raised by express itself', () => {
    expect(mapException(new URIError('URI malformed'))).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    const decode = Object.assign(new Error("Failed to decode param '%FF'"), { status: 400, expose: true });
    expect(mapException(decode)).toEqual({ status: 400, code: 'BAD_REQUEST', message: 'The request is malformed.' });
  });

  it('should still answer 500 for anything else, e.g. a stack overflow or a connection failure', () => {
    expect(mapException(new RangeError('Maximum call stack size exceeded')).status).toBe(500);
    expect(mapException(adapterError('08006')).status).toBe(500);
    expect(mapException(Object.assign(new Error('x'), { status: 503, expose: false })).status).toBe(500);
  });
});
