import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MEMORY_CATEGORIES, MEMORY_LIMITS, MEMORY_SCOPES, type MemoryCategory, type MemoryEntry, type MemoryRevisionEntry, type MemoryScope } from '@h/contracts';

// Validated field by field by the global ValidationPipe; the shapes are libs/contracts memory.ts.

export class CreateMemoryDto {
  @ApiProperty({ enum: MEMORY_SCOPES, example: 'project', description: "user: yours, in every workspace of the team (nobody else sees it); project: this workspace's, seen by its members" })
  @IsIn(MEMORY_SCOPES)
  scope: MemoryScope;

  @ApiProperty({ maxLength: MEMORY_LIMITS.keyChars, example: 'indent-style', description: 'Spelling variants ("Indent Style", "indent_style") name the same memory' })
  @IsString()
  @MinLength(1)
  @MaxLength(MEMORY_LIMITS.keyChars)
  key: string;

  @ApiProperty({ maxLength: MEMORY_LIMITS.contentChars, example: 'Two spaces, no tabs' })
  @IsString()
  @MinLength(1)
  @MaxLength(MEMORY_LIMITS.contentChars)
  content: string;

  @ApiPropertyOptional({ enum: MEMORY_CATEGORIES, example: 'convention', default: 'general' })
  @IsOptional()
  @IsIn(MEMORY_CATEGORIES)
  category?: MemoryCategory;

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', maxLength: MEMORY_LIMITS.tagChars }, maxItems: MEMORY_LIMITS.tags, example: ['style'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MEMORY_LIMITS.tags)
  @IsString({ each: true })
  @MaxLength(MEMORY_LIMITS.tagChars, { each: true })
  tags?: string[];
}

class EditableMemoryDto {
  @ApiProperty({ maxLength: MEMORY_LIMITS.keyChars, example: 'indent-style' })
  @IsString()
  @MinLength(1)
  @MaxLength(MEMORY_LIMITS.keyChars)
  key: string;

  @ApiProperty({ maxLength: MEMORY_LIMITS.contentChars, example: 'Four spaces' })
  @IsString()
  @MinLength(1)
  @MaxLength(MEMORY_LIMITS.contentChars)
  content: string;

  @ApiProperty({ enum: MEMORY_CATEGORIES, example: 'convention' })
  @IsIn(MEMORY_CATEGORIES)
  category: MemoryCategory;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: MEMORY_LIMITS.tagChars }, maxItems: MEMORY_LIMITS.tags, example: ['style'] })
  @IsArray()
  @ArrayMaxSize(MEMORY_LIMITS.tags)
  @IsString({ each: true })
  @MaxLength(MEMORY_LIMITS.tagChars, { each: true })
  tags: string[];
}

/** Any of key, content, category, tags; the scope of a memory never changes (forget it and remember it in the other). */
export class UpdateMemoryDto extends PartialType(EditableMemoryDto) {}

export class MemoryListQueryDto {
  @ApiPropertyOptional({ enum: MEMORY_SCOPES, description: 'Only this scope (default: both)' })
  @IsOptional()
  @IsIn(MEMORY_SCOPES)
  scope?: MemoryScope;

  @ApiPropertyOptional({ maxLength: 200, example: 'indent', description: 'Key, content or tag contains this (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class MemoryDto implements MemoryEntry<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: MEMORY_SCOPES }) scope: MemoryScope;
  @ApiProperty({ example: 'indent-style' }) key: string;
  @ApiProperty({ example: 'Two spaces, no tabs' }) content: string;
  @ApiProperty({ enum: MEMORY_CATEGORIES }) category: MemoryCategory;
  @ApiProperty({ type: [String], example: ['style'] }) tags: string[];
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Set for project memory' }) workspaceId: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Set for user memory: always the caller' }) userId: string | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class MemoryListDto {
  @ApiProperty({ type: [MemoryDto] }) items: MemoryDto[];
}

export class MemoryRevisionDto implements MemoryRevisionEntry<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['create', 'update', 'merge', 'forget', 'restore'] }) change: MemoryRevisionEntry['change'];
  @ApiProperty({ description: 'The value after the change (forget: the value it had)', example: 'Two spaces, no tabs' }) content: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The person; null for the maintenance merge' }) changedById: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The agent run that made it, if one did' }) runId: string | null;
  @ApiProperty() createdAt: Date;
}

export class MemoryHistoryDto {
  @ApiProperty({ type: [MemoryRevisionDto], description: 'Oldest first: nothing overwritten is lost' }) items: MemoryRevisionDto[];
}

/** The wire entry of a stored memory (never its normalised key or team id). */
export function memoryDto({ id, scope, key, content, category, tags, workspaceId, userId, createdAt, updatedAt }: MemoryEntry<Date>): MemoryDto {
  return { id, scope, key, content, category, tags, workspaceId, userId, createdAt, updatedAt };
}
