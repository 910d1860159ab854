import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { AppException } from './app.exception';
import { createValidationPipe } from './validation.pipe';

class NameDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}

class CountDto {
  @ApiProperty()
  @IsInt()
  @Min(1)
  @Max(10)
  count!: number;
}

/** The error body a client gets for `body` sent to a route taking `dto`, or null when accepted. */
async function refusal(dto: new () => object, body: unknown): Promise<{ code: string; message: string } | null> {
  try {
    await createValidationPipe().transform(body, { type: 'body', metatype: dto, data: '' });
    return null;
  } catch (err) {
    if (!(err instanceof AppException)) throw err;
    return { code: err.code, message: err.message };
  }
}

describe('the validation pipe', () => {
  it('should name the wrong kind of value rather than a length or pattern check it also fails', async () => {
    expect(await refusal(NameDto, { name: 42 })).toEqual({ code: 'VALIDATION_FAILED', message: 'name must be a string' });
    expect(await refusal(CountDto, { count: 'three' })).toEqual({ code: 'VALIDATION_FAILED', message: 'count must be an integer number' });
  });

  it('should name the one check a value of the right kind fails', async () => {
    expect(await refusal(NameDto, { name: '   ' })).toEqual({ code: 'VALIDATION_FAILED', message: 'name must not be blank' });
    expect(await refusal(NameDto, { name: 'x'.repeat(81) })).toEqual({ code: 'VALIDATION_FAILED', message: 'name must be shorter than or equal to 80 characters' });
    expect(await refusal(CountDto, { count: 11 })).toEqual({ code: 'VALIDATION_FAILED', message: 'count must not be greater than 10' });
    expect(await refusal(CountDto, { count: 3 })).toBeNull();
  });

  it('should name an unknown field and the fields the route takes', async () => {
    expect(await refusal(NameDto, { name: 'x', repository: 'https://example.com/r.git' })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'repository is not a field here; the fields are name',
    });
  });

  it('should refuse an array where a route takes an object, saying so', async () => {
    expect(await refusal(NameDto, [{ name: 'x' }])).toEqual({ code: 'VALIDATION_FAILED', message: 'The request body must be a JSON object, not an array.' });
  });
});
