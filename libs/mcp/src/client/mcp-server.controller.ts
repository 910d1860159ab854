import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { CreateMcpServerDto, McpServerDto, McpServerListDto, UpdateMcpServerDto } from './mcp-server.dto';
import { McpServerService } from './mcp-server.service';

const WORKSPACE_ID = { name: 'id', format: 'uuid', description: 'The workspace' } as const;
const SERVER_ID = { name: 'serverId', format: 'uuid', description: "An MCP server of this workspace (another workspace's id answers 404)" } as const;
const STDIO_EXAMPLE = { name: 'notes', transport: 'stdio', command: 'node', args: ['tools/notes-server.js'], env: { NOTES_DIR: 'docs/notes' }, approval: 'ask' };
const HTTP_EXAMPLE = { name: 'issues', transport: 'http', url: 'https://mcp.example.org/mcp', headers: { Authorization: 'Bearer mcp-token' }, approval: 'allow' };

// External MCP servers whose tools the workspace's agent runs are offered (libs/mcp client/).
@ApiTags('mcp-servers')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input (VALIDATION_FAILED); a configuration that does not fit its transport (INVALID_MCP_SERVER)' })
@Controller('v1/workspaces/:id/mcp-servers')
export class McpServerController {
  constructor(private readonly servers: McpServerService) {}

  @Get()
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: "The workspace's external MCP servers with their last checked status (never their headers: only the names)" })
  @ApiParam(WORKSPACE_ID)
  @ApiOkResponse({ type: McpServerListDto })
  listMcpServers(@Param('id', new ParseUUIDPipe()) id: string): Promise<McpServerListDto> {
    return this.servers.list(id);
  }

  @Post()
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Add an MCP server: a stdio program run in the sandbox, or a Streamable HTTP URL reached through the egress proxy' })
  @ApiParam(WORKSPACE_ID)
  @ApiBody({ type: CreateMcpServerDto, examples: { stdio: { summary: 'A program in the workspace, run in its sandbox', value: STDIO_EXAMPLE }, http: { summary: 'A remote server with a bearer token (stored encrypted)', value: HTTP_EXAMPLE } } })
  @ApiCreatedResponse({ type: McpServerDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the name is taken in this workspace; MCP_SERVER_LIMIT: the workspace has the most servers it may keep' })
  createMcpServer(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: CreateMcpServerDto,
    @ClientIp() ip: string | null,
  ): Promise<McpServerDto> {
    return this.servers.create(principal, access, id, body, ip);
  }

  @Get(':serverId')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'One MCP server of the workspace' })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(SERVER_ID)
  @ApiOkResponse({ type: McpServerDto })
  getMcpServer(@Param('id', new ParseUUIDPipe()) id: string, @Param('serverId', new ParseUUIDPipe()) serverId: string): Promise<McpServerDto> {
    return this.servers.get(id, serverId);
  }

  @Patch(':serverId')
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Change an MCP server (its status starts over as unknown until the next check)' })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(SERVER_ID)
  @ApiBody({ type: UpdateMcpServerDto, examples: { disable: { summary: 'Keep it but stop connecting', value: { enabled: false } }, allow: { summary: 'Run its tools without asking', value: { approval: 'allow' } }, token: { summary: 'Replace the headers', value: { headers: { Authorization: 'Bearer new-token' } } } } })
  @ApiOkResponse({ type: McpServerDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the name is taken in this workspace' })
  updateMcpServer(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Param('serverId', new ParseUUIDPipe()) serverId: string,
    @Body() body: UpdateMcpServerDto,
    @ClientIp() ip: string | null,
  ): Promise<McpServerDto> {
    return this.servers.update(principal, access, id, serverId, body, ip);
  }

  @Post(':serverId/check')
  @HttpCode(202)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: "Connect to the server now and list its tools (a worker job): the status is `checking` until it ends, then connected or error; stdio servers start the workspace's sandbox" })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(SERVER_ID)
  @ApiAcceptedResponse({ type: McpServerDto, description: 'The check is queued' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the server is disabled' })
  checkMcpServer(@Param('id', new ParseUUIDPipe()) id: string, @Param('serverId', new ParseUUIDPipe()) serverId: string): Promise<McpServerDto> {
    return this.servers.check(id, serverId);
  }

  @Delete(':serverId')
  @HttpCode(204)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Remove an MCP server with its stored headers' })
  @ApiParam(WORKSPACE_ID)
  @ApiParam(SERVER_ID)
  @ApiNoContentResponse({ description: 'Removed' })
  deleteMcpServer(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Param('serverId', new ParseUUIDPipe()) serverId: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.servers.remove(principal, access, id, serverId, ip);
  }
}
