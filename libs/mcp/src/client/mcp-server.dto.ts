import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import {
  MCP_APPROVALS,
  MCP_ARG_MAX_LENGTH,
  MCP_ARGS_MAX,
  MCP_COMMAND_MAX_LENGTH,
  MCP_SERVER_NAME_MAX_LENGTH,
  MCP_SERVER_NAME_PATTERN,
  MCP_TRANSPORTS,
  MCP_URL_MAX_LENGTH,
  type McpApproval,
  type McpServer,
  type McpServerList,
  type McpServerState,
  type McpServerStatus,
  type McpTransport,
} from '@h/contracts';

// The classes document and validate field by field (the global ValidationPipe, as every route);
// what depends on the transport, and the env and header maps, are checked by mcp-server-config.ts
// (400 INVALID_MCP_SERVER). The shapes are the contracts' (libs/contracts mcp-servers.ts).
const NAME = new RegExp(MCP_SERVER_NAME_PATTERN);

export class CreateMcpServerDto {
  @ApiProperty({ maxLength: MCP_SERVER_NAME_MAX_LENGTH, pattern: MCP_SERVER_NAME_PATTERN, example: 'notes', description: 'Unique in the workspace; its tools are offered as mcp__<name>__<tool>' })
  @IsString()
  @MinLength(1)
  @MaxLength(MCP_SERVER_NAME_MAX_LENGTH)
  @Matches(NAME, { message: 'name must be lower-case letters and digits, single hyphens between them (e.g. issue-tracker)' })
  name: string;

  @ApiProperty({ enum: MCP_TRANSPORTS, example: 'stdio', description: 'stdio: a program run in the workspace sandbox; http: a Streamable HTTP URL reached through the egress proxy' })
  @IsIn(MCP_TRANSPORTS)
  transport: McpTransport;

  @ApiPropertyOptional({ maxLength: MCP_COMMAND_MAX_LENGTH, example: 'node', description: 'stdio: the program, run without a shell in /workspace' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MCP_COMMAND_MAX_LENGTH)
  command?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: MCP_ARG_MAX_LENGTH },
    maxItems: MCP_ARGS_MAX,
    example: ['tools/notes-server.js'],
    description: 'stdio: its arguments',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MCP_ARGS_MAX)
  @IsString({ each: true })
  @MaxLength(MCP_ARG_MAX_LENGTH, { each: true })
  args?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, example: { NOTES_DIR: 'docs/notes' }, description: 'stdio: extra environment. It is visible in the sandbox and returned by the API: no secrets here' })
  @IsOptional()
  @IsObject()
  env?: Record<string, string>;

  @ApiPropertyOptional({ maxLength: MCP_URL_MAX_LENGTH, example: 'https://mcp.example.org/mcp', description: "http: the Streamable HTTP endpoint (http or https, no user info); its host must be in the workspace's allowed hosts and network access on" })
  @IsOptional()
  @IsString()
  @MaxLength(MCP_URL_MAX_LENGTH)
  url?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, writeOnly: true, example: { Authorization: 'Bearer mcp-token' }, description: 'http: headers sent with every request (credentials); stored encrypted, never returned (only their names), never sent into the sandbox' })
  @IsOptional()
  @IsObject()
  headers?: Record<string, string>;

  @ApiPropertyOptional({ default: true, description: 'A disabled server is kept but not connected' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: MCP_APPROVALS, default: 'ask', description: "ask: each call asks for approval in the session's approve mode; allow: calls run without asking" })
  @IsOptional()
  @IsIn(MCP_APPROVALS)
  approval?: McpApproval;
}

/** Every field may change; headers may also be removed (null). A changed transport must bring its own fields. */
export class UpdateMcpServerDto extends PartialType(OmitType(CreateMcpServerDto, ['headers'] as const)) {
  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: { type: 'string' }, writeOnly: true, description: 'New headers (replacing all stored ones); null removes them; omitted: kept' })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsObject()
  headers?: Record<string, string> | null;
}

export class McpServerStatusDto implements McpServerStatus<Date> {
  @ApiProperty({ enum: ['unknown', 'checking', 'connected', 'error', 'disabled'], example: 'connected', description: 'The last real check: a run connecting, or POST …/check (checking until it ends)' }) state: McpServerState;
  @ApiProperty({ nullable: true, type: Number, example: 3 }) toolCount: number | null;
  @ApiProperty({ type: [String], example: ['mcp__notes__read_note'] }) tools: string[];
  @ApiProperty({ nullable: true, type: String, example: null, description: 'Why it failed, or a note' }) message: string | null;
  @ApiProperty({ nullable: true, type: Date }) checkedAt: Date | null;
}

export class McpServerDto implements McpServer<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) workspaceId: string;
  @ApiProperty({ example: 'notes' }) name: string;
  @ApiProperty({ enum: MCP_TRANSPORTS }) transport: McpTransport;
  @ApiProperty({ nullable: true, type: String, example: 'node' }) command: string | null;
  @ApiProperty({ type: [String], example: ['tools/notes-server.js'] }) args: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} }) env: Record<string, string>;
  @ApiProperty({ nullable: true, type: String, example: null }) url: string | null;
  @ApiProperty({ type: [String], example: [], description: 'Names of the stored headers; their values are never returned' }) headerNames: string[];
  @ApiProperty({ example: true }) enabled: boolean;
  @ApiProperty({ enum: MCP_APPROVALS }) approval: McpApproval;
  @ApiProperty({ type: McpServerStatusDto }) status: McpServerStatusDto;
  @ApiProperty({ format: 'uuid' }) createdById: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class McpServerListDto implements McpServerList<Date> {
  @ApiProperty({ type: [McpServerDto] }) items: McpServerDto[];
}
