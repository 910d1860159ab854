import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FileContent, FileEntry, FileTree, FileWriteResult } from '@h/contracts';
import { FILE_PATH_MAX_LENGTH } from './file-path';

const FILE_TYPES = ['file', 'directory', 'symlink', 'other'] as const;
const PATH_DOC = {
  maxLength: FILE_PATH_MAX_LENGTH,
  description: 'Relative to the workspace root, "/"-separated (`src/app.ts`). No leading "/", no ".." segment, no NUL: 400 PATH_OUTSIDE_WORKSPACE; a symbolic link that leads outside is refused the same way.',
  example: 'src/app.ts',
};

export class FilePathQueryDto {
  @ApiProperty(PATH_DOC)
  @IsString()
  @MaxLength(FILE_PATH_MAX_LENGTH)
  path: string;
}

export class DeleteFileQueryDto extends FilePathQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'Required ("true") to delete a directory with everything in it' })
  @IsOptional()
  @IsIn(['true', 'false'])
  recursive?: 'true' | 'false';
}

export class TreeQueryDto {
  @ApiPropertyOptional({ ...PATH_DOC, description: `The directory to list (default: the root). ${PATH_DOC.description}`, example: 'src' })
  @IsOptional()
  @IsString()
  @MaxLength(FILE_PATH_MAX_LENGTH)
  path?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'List everything below, depth-first in name order, never entering `.git`, `node_modules` and the other skipped directories (list one of them by its own path to look inside)',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  recursive?: 'true' | 'false';

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100000, description: 'Most entries to return (capped at FILE_TREE_MAX_ENTRIES, default that cap); `truncated` says when more were there' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  limit?: number;
}

export class WriteFileDto {
  @ApiProperty({ maxLength: 16 * 1024 * 1024, description: 'The whole new content: text, or base64 with `encoding: "base64"` (the JSON body is limited by BODY_LIMIT; larger files go through upload)', example: 'export const answer = 42;\n' })
  @IsString()
  @MaxLength(16 * 1024 * 1024)
  content: string;

  @ApiPropertyOptional({ enum: ['utf8', 'base64'], default: 'utf8' })
  @IsOptional()
  @IsIn(['utf8', 'base64'])
  encoding?: 'utf8' | 'base64';
}

export class CreateFileDto {
  @ApiProperty({ enum: ['file', 'directory'], example: 'file' })
  @IsIn(['file', 'directory'])
  type: 'file' | 'directory';

  @ApiPropertyOptional({ maxLength: 16 * 1024 * 1024, description: 'Content of a new file (default empty); not for directories', example: 'export {};\n' })
  @IsOptional()
  @IsString()
  @MaxLength(16 * 1024 * 1024)
  content?: string;

  @ApiPropertyOptional({ enum: ['utf8', 'base64'], default: 'utf8' })
  @IsOptional()
  @IsIn(['utf8', 'base64'])
  encoding?: 'utf8' | 'base64';
}

export class MoveFileDto {
  @ApiProperty({ ...PATH_DOC, description: `What to move or rename. ${PATH_DOC.description}`, example: 'src/old-name.ts' })
  @IsString()
  @MaxLength(FILE_PATH_MAX_LENGTH)
  from: string;

  @ApiProperty({ ...PATH_DOC, description: 'Where it goes; refused with 409 ALREADY_EXISTS when something is there (parents are created)', example: 'src/lib/new-name.ts' })
  @IsString()
  @MaxLength(FILE_PATH_MAX_LENGTH)
  to: string;
}

export class FileEntryDto implements FileEntry {
  @ApiProperty({ example: 'src/app.ts' }) path: string;
  @ApiProperty({ example: 'app.ts' }) name: string;
  @ApiProperty({ enum: FILE_TYPES }) type: FileEntry['type'];
  @ApiProperty({ description: 'Bytes (of the link itself for a symlink)', example: 1432 }) size: number;
}

export class FileTreeDto implements FileTree {
  @ApiProperty({ example: 'src', description: 'The listed directory ("" for the root)' }) path: string;
  @ApiProperty({ type: [FileEntryDto] }) entries: FileEntryDto[];
  @ApiProperty({ description: 'The listing stopped at its limit', example: false }) truncated: boolean;
}

export class FileContentDto implements FileContent {
  @ApiProperty({ example: 'src/app.ts' }) path: string;
  @ApiProperty({ enum: ['utf8', 'base64'], description: 'utf8 for UTF-8 text; base64 for anything else (NUL bytes, invalid UTF-8)' }) encoding: 'utf8' | 'base64';
  @ApiProperty({ example: 'export const answer = 42;\n' }) content: string;
  @ApiProperty({ example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"', description: 'SHA-256 of the bytes, quoted: send it as If-Match when writing' }) etag: string;
  @ApiProperty({ example: 26 }) size: number;
}

export class FileWriteResultDto implements FileWriteResult {
  @ApiProperty({ example: 'src/app.ts' }) path: string;
  @ApiProperty({ example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"' }) etag: string;
  @ApiProperty({ example: 26 }) size: number;
  @ApiProperty({ description: 'No file was there before', example: false }) created: boolean;
}

export class CreatedEntryDto {
  @ApiProperty({ example: 'src/new.ts' }) path: string;
  @ApiProperty({ enum: ['file', 'directory'] }) type: 'file' | 'directory';
  @ApiPropertyOptional({ description: 'For a file: its ETag', example: '"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"' }) etag?: string;
}

export class MovedEntryDto {
  @ApiProperty({ example: 'src/lib/new-name.ts' }) path: string;
  @ApiProperty({ example: 'src/old-name.ts' }) from: string;
}

class ConflictVersionDto {
  @ApiProperty({ nullable: true, type: String, description: 'null when the file is larger than the read limit' }) etag: string | null;
  @ApiProperty() size: number;
  @ApiPropertyOptional({ enum: ['utf8', 'base64'] }) encoding?: 'utf8' | 'base64';
  @ApiPropertyOptional({ description: 'Left out above SANDBOX_READ_MAX_BYTES' }) content?: string;
}

class YourVersionDto {
  @ApiProperty({ nullable: true, type: String, description: 'The If-Match you sent' }) baseEtag: string | null;
  @ApiProperty({ description: 'ETag of the content you sent' }) etag: string;
  @ApiProperty({ enum: ['utf8', 'base64'] }) encoding: 'utf8' | 'base64';
  @ApiProperty() content: string;
}

class EditConflictErrorDto {
  @ApiProperty({ enum: ['EDIT_CONFLICT'] }) code: 'EDIT_CONFLICT';
  @ApiProperty({ example: 'src/app.ts: the file changed since it was read. Compare both versions, then write again with If-Match set to current.etag.' }) message: string;
  @ApiProperty({ type: ConflictVersionDto, nullable: true, description: 'What is in the workspace now (null: the file is gone)' }) current: ConflictVersionDto | null;
  @ApiProperty({ type: YourVersionDto }) yours: YourVersionDto;
}

export class EditConflictResponseDto {
  @ApiProperty({ type: EditConflictErrorDto }) error: EditConflictErrorDto;
}
