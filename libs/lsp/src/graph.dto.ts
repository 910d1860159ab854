import { ApiProperty } from '@nestjs/swagger';
import type { GraphState, GraphStatus } from '@h/contracts';

export class GraphStatusDto implements GraphStatus {
  @ApiProperty({ enum: ['building', 'ready', 'error'], description: 'building: the first build runs; ready: a graph is stored (an update may follow); error: the last build failed', example: 'ready' })
  state: GraphState;
  @ApiProperty({ description: 'Files in the graph (0 while the first build runs)', example: 412 })
  files: number;
  @ApiProperty({ description: 'Exported symbols in the graph', example: 1893 })
  symbols: number;
  @ApiProperty({ description: 'Changes are being folded in: a newer graph follows shortly', example: false })
  updating: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'When the current graph was written', example: '2026-12-03T06:30:00.000Z' })
  builtAt: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'How long the last build or update took, ms', example: 240 })
  lastBuildMs: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last build failed', example: null })
  error: string | null;
}
