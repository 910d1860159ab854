import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODE_LIST, type ErrorCode } from '@h/contracts';

export class ErrorDetailDto {
  @ApiProperty({ enum: ERROR_CODE_LIST, enumName: 'ErrorCode', example: 'VALIDATION_FAILED', description: 'Stable code from the registry (libs/contracts/src/error-codes.ts)' })
  code: ErrorCode;
  @ApiProperty({ example: 'email must be an email' })
  message: string;
}

export class ErrorResponseDto {
  @ApiProperty({ type: ErrorDetailDto })
  error: ErrorDetailDto;
}
