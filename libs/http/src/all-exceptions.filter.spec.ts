import { mapException } from './all-exceptions.filter';

// The second line behind the input policy: database refusals of a value map to 400, not 500.
describe(mapException.name, () => {
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
