import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';
import {
  EDITOR_FONT_SIZE_RANGE,
  EDITOR_TAB_SIZE_RANGE,
  EDITOR_THEMES,
  type EditorTheme,
  type IdeState,
  type IdeStateResponse,
  type PutIdeStateRequest,
  type PutUserPreferencesRequest,
  type UserPreferences,
  type UserPreferencesResponse,
  WORD_WRAP_MODES,
  type WordWrapMode,
} from '@h/contracts';

const IDE_STATE_EXAMPLE: IdeState = {
  layout: { 'ide-main': { side: 20, center: 50, agent: 30 } },
  openTabs: ['src/app.ts', 'README.md'],
  activeTab: 'src/app.ts',
  expandedDirs: ['src'],
  sideView: 'explorer',
  bottomTab: null,
  terminalTabs: [],
};

const IDE_STATE_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  description:
    'The IDE\'s own document (layout sizes, open tabs and the active one, expanded folders, side view, bottom panel tab, terminal tab order). Any JSON object: the server checks only its size (IDE_STATE_MAX_BYTES of JSON, 413 IDE_STATE_TOO_LARGE beyond) and the input policy (no NUL, nesting depth).',
  example: IDE_STATE_EXAMPLE,
} as const;

export class PutIdeStateDto implements PutIdeStateRequest {
  @ApiProperty(IDE_STATE_SCHEMA)
  @IsObject()
  state: IdeState;
}

export class IdeStateResponseDto implements IdeStateResponse<Date> {
  @ApiProperty(IDE_STATE_SCHEMA) state: IdeState;
  @ApiProperty({ nullable: true, type: Date, description: 'null when nothing was stored yet (state is then {})' }) updatedAt: Date | null;
}

export class PutUserPreferencesDto implements PutUserPreferencesRequest {
  @ApiPropertyOptional({ type: 'integer', minimum: EDITOR_FONT_SIZE_RANGE.min, maximum: EDITOR_FONT_SIZE_RANGE.max, example: 14, description: 'Editor font size in pixels' })
  @IsOptional()
  @IsInt()
  @Min(EDITOR_FONT_SIZE_RANGE.min)
  @Max(EDITOR_FONT_SIZE_RANGE.max)
  editorFontSize?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: EDITOR_TAB_SIZE_RANGE.min, maximum: EDITOR_TAB_SIZE_RANGE.max, example: 2, description: 'Columns per indentation step' })
  @IsOptional()
  @IsInt()
  @Min(EDITOR_TAB_SIZE_RANGE.min)
  @Max(EDITOR_TAB_SIZE_RANGE.max)
  tabSize?: number;

  @ApiPropertyOptional({ enum: WORD_WRAP_MODES, example: 'off' })
  @IsOptional()
  @IsIn(WORD_WRAP_MODES)
  wordWrap?: WordWrapMode;

  @ApiPropertyOptional({ enum: EDITOR_THEMES, example: 'light' })
  @IsOptional()
  @IsIn(EDITOR_THEMES)
  theme?: EditorTheme;
}

export class UserPreferencesDto implements UserPreferences {
  @ApiProperty({ type: 'integer', minimum: EDITOR_FONT_SIZE_RANGE.min, maximum: EDITOR_FONT_SIZE_RANGE.max, example: 14 }) editorFontSize: number;
  @ApiProperty({ type: 'integer', minimum: EDITOR_TAB_SIZE_RANGE.min, maximum: EDITOR_TAB_SIZE_RANGE.max, example: 2 }) tabSize: number;
  @ApiProperty({ enum: WORD_WRAP_MODES }) wordWrap: WordWrapMode;
  @ApiProperty({ enum: EDITOR_THEMES }) theme: EditorTheme;
}

export class UserPreferencesResponseDto implements UserPreferencesResponse<Date> {
  @ApiProperty({ type: UserPreferencesDto, description: 'Every field, defaults filled in' }) preferences: UserPreferencesDto;
  @ApiProperty({ nullable: true, type: Date, description: 'null when nothing was stored yet' }) updatedAt: Date | null;
}
