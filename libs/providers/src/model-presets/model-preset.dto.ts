import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { MODEL_ID_MAX_LENGTH, MODEL_ID_PATTERN, MODEL_PRESET_NAME_MAX_LENGTH, type CatalogModel, type ModelPreset, type ModelPresetList, type ModelThinkingSupport } from '@h/contracts';

// The classes document and validate; the shapes are the contracts' (libs/contracts model-presets.ts).
const MODEL_ID = new RegExp(MODEL_ID_PATTERN);
const THINKING_SUPPORT: readonly ModelThinkingSupport[] = ['toggle', 'always', 'never'];
// A visible name: no control characters, not only spaces.
const PRESET_NAME = /^(?=.*\S)[^\p{Cc}]+$/u;

export class CreateModelPresetDto {
  @ApiProperty({ minLength: 1, maxLength: MODEL_PRESET_NAME_MAX_LENGTH, pattern: PRESET_NAME.source, example: 'Fast review', description: 'Unique in the team (409 CONFLICT otherwise)' })
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_PRESET_NAME_MAX_LENGTH)
  @Matches(PRESET_NAME, { message: 'name must be visible text without control characters' })
  name: string;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: "One of the team's own providers (GET …/providers); null or omitted: DeepSeek" })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsUUID()
  providerId?: string | null;

  @ApiProperty({ maxLength: MODEL_ID_MAX_LENGTH, pattern: MODEL_ID_PATTERN, example: 'deepseek-v4-flash', description: 'A model id of the catalog, or of the provider when providerId is set (400 UNKNOWN_MODEL naming the known ones otherwise)' })
  @IsString()
  @Matches(MODEL_ID, { message: 'model must be a model id such as deepseek-v4-flash' })
  model: string;

  @ApiPropertyOptional({ default: false, example: true, description: 'Thinking on or off for models that let the request choose' })
  @IsOptional()
  @IsBoolean()
  thinking?: boolean;
}

export class UpdateModelPresetDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: MODEL_PRESET_NAME_MAX_LENGTH, pattern: PRESET_NAME.source, example: 'Careful' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_PRESET_NAME_MAX_LENGTH)
  @Matches(PRESET_NAME, { message: 'name must be visible text without control characters' })
  name?: string;

  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: "One of the team's own providers (GET …/providers); null: DeepSeek; omitted: unchanged" })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsUUID()
  providerId?: string | null;

  @ApiPropertyOptional({ maxLength: MODEL_ID_MAX_LENGTH, pattern: MODEL_ID_PATTERN, example: 'deepseek-v4-pro' })
  @IsOptional()
  @IsString()
  @Matches(MODEL_ID, { message: 'model must be a model id such as deepseek-v4-flash' })
  model?: string;

  @ApiPropertyOptional({ example: false })
  @IsOptional()
  @IsBoolean()
  thinking?: boolean;
}

export class ModelPresetDto implements ModelPreset<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty({ example: 'Fast review' }) name: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The team provider of the model; null: DeepSeek' }) providerId: string | null;
  @ApiProperty({ example: 'deepseek-v4-flash' }) model: string;
  @ApiProperty({ example: true }) thinking: boolean;
  @ApiProperty({ format: 'uuid' }) createdById: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class CatalogModelDto implements CatalogModel {
  @ApiProperty({ example: 'deepseek-v4-flash' }) id: string;
  @ApiProperty({ example: 1_000_000, description: 'Tokens' }) contextWindow: number;
  @ApiProperty({ enum: THINKING_SUPPORT, description: 'toggle: the preset chooses; always/never: the model decides' }) thinking: ModelThinkingSupport;
}

export class ModelPresetListDto implements ModelPresetList<Date> {
  @ApiProperty({ type: [ModelPresetDto] }) items: ModelPresetDto[];
  @ApiProperty({ type: [CatalogModelDto], description: 'The models a preset may use' }) models: CatalogModelDto[];
}
