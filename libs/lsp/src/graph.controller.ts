import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { GraphStatus } from '@h/contracts';
import { FileSandboxService } from '@h/files';
import { ErrorResponseDto } from '@h/http';
import { Access } from '@h/identity';
import { GraphStatusDto } from './graph.dto';

const STATES = new Set(['building', 'ready', 'error']);
const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : 0);
const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : null);

/** What a sandbox sent, field by field (a container's answer is not trusted to be the shape). */
export function sanitizeGraphStatus(raw: unknown): GraphStatus {
  const s = (raw ?? {}) as Partial<Record<keyof GraphStatus, unknown>>;
  return {
    state: STATES.has(s.state as string) ? (s.state as GraphStatus['state']) : 'error',
    files: count(s.files),
    symbols: count(s.symbols),
    updating: s.updating === true,
    builtAt: text(s.builtAt, 40),
    lastBuildMs: Number.isInteger(s.lastBuildMs) ? (s.lastBuildMs as number) : null,
    error: STATES.has(s.state as string) ? text(s.error, 500) : 'the sandbox sent no graph status',
  };
}

// The knowledge graph's status for the IDE's status bar; the graph itself lives in the sandbox
// (apps/sandboxd graph/), which builds it on start and updates it from its watcher.
@ApiTags('graph')
@Controller('v1/workspaces/:id/graph')
export class GraphController {
  constructor(private readonly sandbox: FileSandboxService) {}

  @Get('status')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: "The codebase knowledge graph's state: building, or files and symbols in it, or why it failed (starts the sandbox if need be)" })
  @ApiOkResponse({ type: GraphStatusDto })
  @ApiResponse({ status: 503, type: ErrorResponseDto, description: 'SANDBOX_UNAVAILABLE: the sandbox could not be started or reached' })
  async status(@Param('id') id: string): Promise<GraphStatusDto> {
    return sanitizeGraphStatus(await this.sandbox.call(id, 'graph.status', {}));
  }
}
