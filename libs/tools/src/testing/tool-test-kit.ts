// Shared by the specs of this lib: a real temp directory as a LocalWorkspace plus a tool context.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalWorkspace } from '../local-workspace';
import { MemoryOutputStore } from '../output.store';
import { CORE_TOOLS, ToolRegistry } from '../tool.registry';
import { newRunToolState, type ToolContext, type ToolResult } from '../tool.types';

export interface ToolKit {
  dir: string;
  ctx: ToolContext;
  registry: ToolRegistry;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  cleanup(): void;
}

export function createToolKit(): ToolKit {
  const dir = mkdtempSync(join(tmpdir(), 'h-tools-'));
  const workspace = new LocalWorkspace(dir);
  const ctx: ToolContext = {
    workspace,
    signal: new AbortController().signal,
    outputs: new MemoryOutputStore(),
    state: newRunToolState(),
  };
  const registry = new ToolRegistry(CORE_TOOLS);
  return {
    dir,
    ctx,
    registry,
    call: (name, args = {}) => registry.run(name, JSON.stringify(args), ctx),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
