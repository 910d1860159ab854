import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { MemoryView } from '@h/db';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { CreateMemoryDto, MemoryDto, memoryDto, MemoryHistoryDto, MemoryListDto, MemoryListQueryDto, UpdateMemoryDto } from './memory.dto';
import { MemoryService } from './memory.service';

const WORKSPACE_ID = { name: 'id', format: 'uuid', description: 'The workspace (its project memory; your user memory of its team)' } as const;
const MEMORY_ID = { name: 'memoryId', format: 'uuid', description: "A memory you may see here (another user's user memory, or another workspace's, answers 404)" } as const;

function view(principal: Principal, access: AccessGrant, workspaceId: string): MemoryView {
  return { teamId: access.teamId, userId: principal.userId, workspaceId };
}

// The Memory settings page: the caller's own user memory (across the team's workspaces) and the
// workspace's project memory. Viewers read; members and above edit; nobody sees another's user memory.
@ApiTags('memories')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input (VALIDATION_FAILED)' })
@Controller('v1/workspaces/:id/memories')
export class MemoryController {
  constructor(private readonly memory: MemoryService) {}

  @Get()
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: "Your user memory in this team and the workspace's project memory, newest first" })
  @ApiParam(WORKSPACE_ID)
  @ApiOkResponse({ type: MemoryListDto })
  async listMemories(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id', new ParseUUIDPipe()) id: string, @Query() query: MemoryListQueryDto): Promise<MemoryListDto> {
    return { items: (await this.memory.list(view(principal, access, id), { scope: query.scope, query: query.q })).map(memoryDto) };
  }

  @Post()
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Remember something: a key already there (in any spelling) is updated, its old value kept in the history' })
  @ApiParam(WORKSPACE_ID)
  @ApiBody({ type: CreateMemoryDto, examples: { project: { summary: 'A convention of this workspace', value: { scope: 'project', key: 'indent-style', content: 'Two spaces, no tabs', category: 'convention', tags: ['style'] } }, user: { summary: 'About you, in every workspace', value: { scope: 'user', key: 'timezone', content: 'Europe/Berlin', category: 'fact' } } } })
  @ApiCreatedResponse({ type: MemoryDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'MEMORY_LIMIT: the scope keeps the most memories it may' })
  async createMemory(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: CreateMemoryDto): Promise<MemoryDto> {
    return memoryDto((await this.memory.remember(view(principal, access, id), { userId: principal.userId, runId: null }, { key: body.key, value: body.content, category: body.category, tags: body.tags, scope: body.scope })).memory);
  }

  @Get(':memoryId')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'One memory' })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryDto })
  async getMemory(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id', new ParseUUIDPipe()) id: string, @Param('memoryId', new ParseUUIDPipe()) memoryId: string): Promise<MemoryDto> {
    return memoryDto(await this.memory.get(view(principal, access, id), memoryId));
  }

  @Get(':memoryId/history')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'Every change of a memory with the value it had, oldest first (also of a forgotten one)' })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryHistoryDto })
  async getMemoryHistory(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id', new ParseUUIDPipe()) id: string, @Param('memoryId', new ParseUUIDPipe()) memoryId: string): Promise<MemoryHistoryDto> {
    return { items: await this.memory.history(view(principal, access, id), memoryId) };
  }

  @Patch(':memoryId')
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Change a memory (the value it had stays in its history)' })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(MEMORY_ID)
  @ApiBody({ type: UpdateMemoryDto, examples: { value: { summary: 'A new value', value: { content: 'Four spaces' } }, tags: { summary: 'Retag it', value: { tags: ['style', 'python'] } } } })
  @ApiOkResponse({ type: MemoryDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: another memory of the scope has that key' })
  async updateMemory(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Param('memoryId', new ParseUUIDPipe()) memoryId: string,
    @Body() body: UpdateMemoryDto,
  ): Promise<MemoryDto> {
    return memoryDto(await this.memory.edit(view(principal, access, id), { userId: principal.userId, runId: null }, memoryId, body));
  }

  @Delete(':memoryId')
  @HttpCode(204)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Forget a memory (its history stays readable)' })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(MEMORY_ID)
  @ApiNoContentResponse({ description: 'Forgotten' })
  deleteMemory(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id', new ParseUUIDPipe()) id: string, @Param('memoryId', new ParseUUIDPipe()) memoryId: string): Promise<void> {
    return this.memory.remove(view(principal, access, id), { userId: principal.userId, runId: null }, memoryId);
  }
}
