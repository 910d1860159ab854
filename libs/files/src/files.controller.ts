import { applyDecorators, Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Req, Res, StreamableFile, UseInterceptors } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiPreconditionFailedResponse,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ErrorResponseDto, UploadBodyInterceptor, type UploadedBody } from '@h/http';
import { Access } from '@h/identity';
import {
  CreatedEntryDto,
  CreateFileDto,
  DeleteFileQueryDto,
  EditConflictResponseDto,
  FileContentDto,
  FilePathQueryDto,
  FileTreeDto,
  FileWriteResultDto,
  MovedEntryDto,
  MoveFileDto,
  TreeQueryDto,
  WriteFileDto,
} from './files.dto';
import { FilesService } from './files.service';

const IF_MATCH = {
  name: 'If-Match',
  required: false,
  description: 'The ETag you read ("<sha256 hex>"): write only over that version (409 EDIT_CONFLICT with both versions otherwise). `*`: overwrite whatever file is there (412 if none). Left out: create only; over an existing file 428 PRECONDITION_REQUIRED.',
  schema: { type: 'string', maxLength: 66, pattern: '^(\\*|"?[0-9a-fA-F]{64}"?)$' },
} as const;

/** What a write (PUT content, upload) documents: If-Match and every answer it leads to. */
const ConditionalWriteDocs = () =>
  applyDecorators(
    ApiHeader(IF_MATCH),
    ApiCreatedResponse({ type: FileWriteResultDto, description: 'Created (no file was there)' }),
    ApiOkResponse({ type: FileWriteResultDto, description: 'Replaced the version If-Match named' }),
    ApiConflictResponse({ type: EditConflictResponseDto, description: 'EDIT_CONFLICT: the file is not the version If-Match names; `current` and `yours` carry both' }),
    ApiPreconditionFailedResponse({ type: ErrorResponseDto, description: 'PRECONDITION_FAILED: If-Match: * and no file there' }),
    ApiResponse({ status: 428, type: ErrorResponseDto, description: 'PRECONDITION_REQUIRED: the file exists and no If-Match was sent' }),
  );

// Thin: every rule lives in FilesService. Paths are a query parameter (`?path=src/a.ts`): one
// documented, bounded string instead of a wildcard segment whose %2F and dot segments proxies and
// routers each treat their own way.
@ApiTags('files')
@Controller('v1/workspaces/:id/files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Get('tree')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'A directory\'s entries, or everything below it (recursive=true, capped)' })
  @ApiOkResponse({ type: FileTreeDto })
  listFiles(@Param('id') id: string, @Query() query: TreeQueryDto): Promise<FileTreeDto> {
    return this.files.tree(id, query);
  }

  @Get('content')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'The raw bytes of a file, with its ETag (SHA-256); If-None-Match with it answers 304' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The bytes; Content-Type from the name for types that cannot run scripts, else text/plain or application/octet-stream', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 304, description: 'If-None-Match names the current ETag' })
  async readFile(@Param('id') id: string, @Query() query: FilePathQueryDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<StreamableFile | undefined> {
    const file = await this.files.readRaw(id, query.path);
    res.setHeader('ETag', file.etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    // Workspace content is served from H's own origin: it must never run as a page of it.
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.headers['if-none-match'] === file.etag) {
      res.status(304);
      return undefined;
    }
    return new StreamableFile(file.data, { type: file.contentType, length: file.data.length });
  }

  @Get('text')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'A file as JSON: UTF-8 text as is, anything else base64, with its ETag' })
  @ApiOkResponse({ type: FileContentDto })
  async readFileText(@Param('id') id: string, @Query() query: FilePathQueryDto, @Res({ passthrough: true }) res: Response): Promise<FileContentDto> {
    const file = await this.files.readJson(id, query.path);
    res.setHeader('ETag', file.etag);
    return file;
  }

  @Put('content')
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Write a whole file, conditional on If-Match (see the header)' })
  @ConditionalWriteDocs()
  async writeFile(
    @Param('id') id: string,
    @Query() query: FilePathQueryDto,
    @Body() body: WriteFileDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileWriteResultDto> {
    return this.written(res, await this.files.write(id, query.path, Buffer.from(body.content, body.encoding ?? 'utf8'), ifMatch));
  }

  @Post()
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Create a file or directory (parents too); 409 ALREADY_EXISTS when something is there' })
  @ApiCreatedResponse({ type: CreatedEntryDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'ALREADY_EXISTS' })
  createFile(@Param('id') id: string, @Query() query: FilePathQueryDto, @Body() body: CreateFileDto): Promise<CreatedEntryDto> {
    return this.files.create(id, query.path, body);
  }

  @Post('move')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Rename or move a file or directory; never overwrites (409 ALREADY_EXISTS)' })
  @ApiOkResponse({ type: MovedEntryDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'ALREADY_EXISTS: something is at `to`' })
  moveFile(@Param('id') id: string, @Body() body: MoveFileDto): Promise<MovedEntryDto> {
    return this.files.move(id, body.from, body.to);
  }

  @Delete()
  @HttpCode(204)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Delete a file, or a directory with recursive=true' })
  @ApiNoContentResponse({ description: 'Deleted' })
  deleteFile(@Param('id') id: string, @Query() query: DeleteFileQueryDto): Promise<void> {
    return this.files.remove(id, query.path, query.recursive === 'true');
  }

  @Post('upload')
  @Access('workspace', 'id', 'member')
  @UseInterceptors(UploadBodyInterceptor)
  @ApiOperation({ summary: 'Upload one file: the raw body (any content type) or multipart/form-data with the field "file"; at most FILE_UPLOAD_MAX_BYTES; If-Match as for writes' })
  @ApiConsumes('application/octet-stream', 'multipart/form-data')
  @ApiBody({ schema: { type: 'string', format: 'binary', description: 'The file\'s bytes (or a multipart form whose field "file" holds them)' } })
  @ConditionalWriteDocs()
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'FILE_TOO_LARGE: over FILE_UPLOAD_MAX_BYTES (the message names the limit)' })
  async uploadFile(
    @Param('id') id: string,
    @Query() query: FilePathQueryDto,
    @Req() req: Request & { uploaded?: UploadedBody },
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileWriteResultDto> {
    return this.written(res, await this.files.write(id, query.path, req.uploaded?.data ?? Buffer.alloc(0), ifMatch));
  }

  private written(res: Response, result: FileWriteResultDto): FileWriteResultDto {
    res.status(result.created ? 201 : 200);
    res.setHeader('ETag', result.etag);
    return result;
  }
}
