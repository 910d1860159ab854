import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import {
  CUSTOM_PROVIDER_KEY_MAX_LENGTH,
  CUSTOM_PROVIDER_MODELS_MAX,
  CUSTOM_PROVIDER_NAME_MAX_LENGTH,
  CUSTOM_PROVIDER_URL_MAX_LENGTH,
  MODEL_CONTEXT_WINDOW_MAX,
  MODEL_CONTEXT_WINDOW_MIN,
  MODEL_ID_MAX_LENGTH,
  MODEL_ID_PATTERN,
  MODEL_PRICE_MAX,
  type CustomProvider,
  type CustomProviderList,
  type DiscoveredModel,
  type DiscoveredModelList,
  type ProviderModel,
  type ProviderModelPrice,
} from '@h/contracts';

// The classes document and validate; the shapes are the contracts' (libs/contracts providers.ts).
// Nested optional fields use ValidateIf(undefined) rather than IsOptional, so a null is refused.
const PROVIDER_NAME = /^(?=.*\S)[^\p{Cc}]+$/u;
const API_KEY = /^[\x21-\x7e]+$/;
const MODEL_ID = new RegExp(MODEL_ID_PATTERN);
const given = (_: unknown, v: unknown) => v !== undefined;

export class ProviderModelPriceDto implements ProviderModelPrice {
  @ApiProperty({ minimum: 0, maximum: MODEL_PRICE_MAX, example: 0.27, description: 'USD per 1M input tokens (cache misses)' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MODEL_PRICE_MAX)
  input: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MODEL_PRICE_MAX, example: 0.07, description: 'USD per 1M cached input tokens; default: the input price' })
  @ValidateIf(given)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MODEL_PRICE_MAX)
  cacheHit?: number;

  @ApiProperty({ minimum: 0, maximum: MODEL_PRICE_MAX, example: 1.1, description: 'USD per 1M output tokens' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MODEL_PRICE_MAX)
  output: number;
}

export class ProviderModelDto implements ProviderModel {
  @ApiProperty({ maxLength: MODEL_ID_MAX_LENGTH, pattern: MODEL_ID_PATTERN, example: 'Qwen/Qwen2.5-Coder-32B-Instruct' })
  @IsString()
  @Matches(MODEL_ID, { message: 'id must be a model id such as llama3.1:8b or Qwen/Qwen2.5-Coder-32B-Instruct' })
  id: string;

  @ApiProperty({ minimum: MODEL_CONTEXT_WINDOW_MIN, maximum: MODEL_CONTEXT_WINDOW_MAX, example: 131072, description: 'Tokens; history is compacted at half of it' })
  @IsInt()
  @Min(MODEL_CONTEXT_WINDOW_MIN)
  @Max(MODEL_CONTEXT_WINDOW_MAX)
  contextWindow: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MODEL_CONTEXT_WINDOW_MAX, example: 8192, description: 'Longest answer; default min(8192, contextWindow)' })
  @ValidateIf(given)
  @IsInt()
  @Min(1)
  @Max(MODEL_CONTEXT_WINDOW_MAX)
  maxOutput?: number;

  @ApiPropertyOptional({ type: ProviderModelPriceDto, description: 'Omitted: requests cost nothing (a self-hosted server)' })
  @ValidateIf(given)
  @IsObject()
  @ValidateNested()
  @Type(() => ProviderModelPriceDto)
  price?: ProviderModelPriceDto;
}

export class CreateCustomProviderDto {
  @ApiProperty({ minLength: 1, maxLength: CUSTOM_PROVIDER_NAME_MAX_LENGTH, pattern: PROVIDER_NAME.source, example: 'Local vLLM', description: 'Unique in the team (409 CONFLICT otherwise)' })
  @IsString()
  @MinLength(1)
  @MaxLength(CUSTOM_PROVIDER_NAME_MAX_LENGTH)
  @Matches(PROVIDER_NAME, { message: 'name must be visible text without control characters' })
  name: string;

  @ApiProperty({
    maxLength: CUSTOM_PROVIDER_URL_MAX_LENGTH,
    example: 'https://llm.example.org/v1',
    description: 'OpenAI-compatible base URL (…/v1 for most servers): https, or http / an internal address only for hosts in PROVIDER_ALLOWED_INTERNAL_HOSTS; no user info (400 INVALID_PROVIDER_URL)',
  })
  @IsString()
  @MaxLength(CUSTOM_PROVIDER_URL_MAX_LENGTH)
  baseUrl: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: CUSTOM_PROVIDER_KEY_MAX_LENGTH, pattern: API_KEY.source, writeOnly: true, description: 'Sent as a bearer token; stored encrypted, never returned. Omit for a server without keys.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(CUSTOM_PROVIDER_KEY_MAX_LENGTH)
  @Matches(API_KEY, { message: 'apiKey must be printable characters without spaces' })
  apiKey?: string;

  @ApiPropertyOptional({ type: [ProviderModelDto], maxItems: CUSTOM_PROVIDER_MODELS_MAX, description: 'The models sessions may use, unique ids (400 INVALID_PROVIDER_MODELS otherwise)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CUSTOM_PROVIDER_MODELS_MAX)
  @ValidateNested({ each: true })
  @Type(() => ProviderModelDto)
  models?: ProviderModelDto[];
}

/** Each field of the create body may be changed; the key may also be removed (null). */
export class UpdateCustomProviderDto extends PartialType(OmitType(CreateCustomProviderDto, ['apiKey'] as const)) {
  @ApiPropertyOptional({ nullable: true, type: String, minLength: 1, maxLength: CUSTOM_PROVIDER_KEY_MAX_LENGTH, pattern: API_KEY.source, writeOnly: true, description: 'A new key; null removes the stored one; omitted: kept' })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MinLength(1)
  @MaxLength(CUSTOM_PROVIDER_KEY_MAX_LENGTH)
  @Matches(API_KEY, { message: 'apiKey must be printable characters without spaces' })
  apiKey?: string | null;
}

export class CustomProviderDto implements CustomProvider<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty({ example: 'Local vLLM' }) name: string;
  @ApiProperty({ example: 'http://127.0.0.1:8000/v1' }) baseUrl: string;
  @ApiProperty({ description: 'Whether a key is stored; the key itself is never returned', example: true }) configured: boolean;
  @ApiProperty({ type: [ProviderModelDto] }) models: ProviderModelDto[];
  @ApiProperty({ format: 'uuid' }) createdById: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class CustomProviderListDto implements CustomProviderList<Date> {
  @ApiProperty({ type: [CustomProviderDto] }) items: CustomProviderDto[];
}

export class DiscoveredModelDto implements DiscoveredModel {
  @ApiProperty({ example: 'llama3.1:8b' }) id: string;
  @ApiProperty({ nullable: true, type: Number, example: 131072, description: 'Only when the server reports it (vLLM max_model_len, context_length)' }) contextWindow: number | null;
}

export class DiscoveredModelListDto implements DiscoveredModelList {
  @ApiProperty({ type: [DiscoveredModelDto], description: "The provider's GET /models, sorted by id; nothing is saved" }) models: DiscoveredModelDto[];
}
