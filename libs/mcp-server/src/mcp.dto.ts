// The OpenAPI description of POST /api/mcp: JSON-RPC 2.0 messages of the MCP methods H serves.
// These classes only document; the body is checked by mcp-jsonrpc.ts (strict) and then by the SDK.
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MCP_ID_MAX_LENGTH, MCP_SERVER_METHODS } from './mcp-jsonrpc';

// A JSON-RPC id: a string (bounded) or any safe integer, as mcp-jsonrpc.ts checks it.
const ID_STRING = { type: 'string', maxLength: MCP_ID_MAX_LENGTH };
const ID_INTEGER = { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

export class McpRequestDto {
  @ApiProperty({ enum: ['2.0'], example: '2.0' }) jsonrpc: '2.0';
  @ApiPropertyOptional({ oneOf: [ID_STRING, ID_INTEGER], description: 'Absent for a notification (answered 202 with no body)', example: 1 })
  id?: string | number;
  @ApiProperty({ enum: MCP_SERVER_METHODS, example: 'tools/call' }) method: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { name: 'read_file', arguments: { path: 'README.md', limit: 10 } } })
  params?: Record<string, unknown>;
}

export class McpJsonRpcErrorDataDto {
  @ApiProperty({ description: "A code of H's error registry", example: 'TOOL_TIMEOUT' }) code: string;
  @ApiPropertyOptional({ description: 'The limit that was hit (bytes, requests per minute, milliseconds)', example: 120000 }) limit?: number;
}

export class McpJsonRpcErrorDto {
  @ApiProperty({ example: -32001 }) code: number;
  @ApiProperty({ example: 'run_command did not finish within 120 s (MCP_TOOL_TIMEOUT_MS) and was stopped.' }) message: string;
  @ApiProperty({ type: McpJsonRpcErrorDataDto }) data: McpJsonRpcErrorDataDto;
}

export class McpResponseDto {
  @ApiProperty({ enum: ['2.0'], example: '2.0' }) jsonrpc: '2.0';
  @ApiProperty({ oneOf: [ID_STRING, ID_INTEGER], nullable: true, example: 1 }) id: string | number | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The method\'s result (tools/call: `content` and `isError`); absent when `error` is set',
    example: { content: [{ type: 'text', text: '1\t# my project\n2\t\n3\tRun `npm test`.' }], isError: false },
  })
  result?: Record<string, unknown>;
  @ApiPropertyOptional({ type: McpJsonRpcErrorDto }) error?: McpJsonRpcErrorDto;
}
