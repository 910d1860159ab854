import { Body, Controller, HttpCode, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { MCP_SERVER_TOOL_SCOPES } from '@h/contracts';
import { ErrorResponseDto } from '@h/http';
import { Authenticated } from '@h/identity';
import { McpRequestDto, McpResponseDto } from './mcp.dto';
import { type McpRequest, McpRequestInterceptor } from './mcp-request.interceptor';
import { McpServerService } from './mcp-server.service';

const TOOL_SCOPES = Object.entries(MCP_SERVER_TOOL_SCOPES)
  .map(([tool, scope]) => `\`${tool}\` (${scope})`)
  .join(', ');

// H as an MCP server, Streamable HTTP (stateless: POST only; GET and DELETE answer 405, see
// mcp-http-methods.ts). The SDK writes the answer itself, hence @Res().
@ApiTags('mcp')
@Controller('mcp')
export class McpController {
  constructor(private readonly mcp: McpServerService) {}

  @Post()
  @Authenticated({ scope: 'read' })
  @UseInterceptors(McpRequestInterceptor)
  @HttpCode(200)
  @ApiOperation({
    summary: 'MCP server (Streamable HTTP): H\'s workspace tools for MCP clients',
    description:
      'One JSON-RPC 2.0 message (initialize, tools/list, tools/call, ping, notifications) per POST, answered as JSON. ' +
      'Needs an API token bound to one workspace (403 TOKEN_NOT_WORKSPACE_BOUND otherwise); the tools act on that workspace\'s sandbox. ' +
      `Scope per tool: ${TOOL_SCOPES}; a call without it is a JSON-RPC error -32000 with data.code INSUFFICIENT_SCOPE. ` +
      'Limits, each a JSON-RPC error whose data.code names it: MCP_BODY_MAX_BYTES (413 PAYLOAD_TOO_LARGE), ' +
      'MCP_RATE_LIMIT_PER_MINUTE per token (429 RATE_LIMITED, Retry-After), MCP_TOOL_TIMEOUT_MS per tool call (-32001 TOOL_TIMEOUT). See libs/mcp/README.md.',
  })
  @ApiBody({
    type: McpRequestDto,
    examples: {
      initialize: { value: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'my-client', version: '1.0.0' } } } },
      list: { value: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} } },
      call: { value: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'README.md', limit: 10 } } } },
    },
  })
  @ApiOkResponse({
    type: McpResponseDto,
    example: { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '1\t# my project' }], isError: false } },
  })
  @ApiAcceptedResponse({ description: 'A notification (no id): accepted, no body' })
  @ApiBadRequestResponse({ type: McpResponseDto, description: 'Not JSON (-32700 INVALID_JSON) or not a JSON-RPC message of a method served here (-32600 VALIDATION_FAILED)' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'TOKEN_NOT_WORKSPACE_BOUND: a browser session or a team-wide token; FORBIDDEN: the workspace is not the token team\'s' })
  @ApiPayloadTooLargeResponse({ type: McpResponseDto, description: 'PAYLOAD_TOO_LARGE (JSON-RPC error, data.limit)' })
  @ApiTooManyRequestsResponse({ type: McpResponseDto, description: 'RATE_LIMITED (JSON-RPC error, Retry-After)' })
  mcpPost(@Req() req: McpRequest, @Res() res: Response, @Body() body: unknown): Promise<void> {
    return this.mcp.handle(req, res, body);
  }
}
