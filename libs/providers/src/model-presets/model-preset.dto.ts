import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MODEL_PRESET_NAME_MAX_LENGTH, type CatalogModel, type ModelPreset, type ModelPresetList, type ModelThinkingSupport } from '@h/contracts';

// The classes document and validate; the shapes are the contracts' (libs/contracts model-presets.ts).
const MODEL_ID = /^[\w.:-]{1,80}$/;
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

  @ApiProperty({ maxLength: 80, pattern: MODEL_ID.source, example: 'deepseek-v4-flash', description: 'A model id of the catalog (400 UNKNOWN_MODEL naming the known ones otherwise)' })
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

  @ApiPropertyOptional({ maxLength: 80, pattern: MODEL_ID.source, example: 'deepseek-v4-pro' })
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
