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
      Object.assign(new Error('Invalid `prisma.user.create()` invocation: value too long'), { code: 'P2000' }),
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
