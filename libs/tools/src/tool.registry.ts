// The tool registry. The order of definitions is FIXED: tool definitions sit at the very start
// of every request, so any change of order or bytes there throws away the provider's prefix
// cache for everything after it.
import { WorkspaceError } from '@h/contracts';
import { createDirectoryTool } from './tools/create-directory.tool';
import { deleteFileTool } from './tools/delete-file.tool';
import { editFileTool } from './tools/edit-file.tool';
import { grepTool } from './tools/grep.tool';
import { killTerminalTool } from './tools/kill-terminal.tool';
import { listFilesTool } from './tools/list-files.tool';
import { readCommandOutputTool } from './tools/read-command-output.tool';
import { readFileTool } from './tools/read-file.tool';
import { readGraphTool } from './tools/read-graph.tool';
import { readProblemsTool } from './tools/read-problems.tool';
import { renameFileTool } from './tools/rename-file.tool';
import { runCommandTool } from './tools/run-command.tool';
import { runInTerminalTool } from './tools/run-in-terminal.tool';
import { searchFilesTool } from './tools/search-files.tool';
import { taskCompleteTool } from './tools/task-complete.tool';
import { writeFileTool } from './tools/write-file.tool';
import { writeSummaryTool } from './tools/write-summary.tool';
import { writeTodosTool } from './tools/write-todos.tool';
import { ToolError, type AgentTool, type ToolContext, type ToolResult, type ToolSpec } from './tool.types';

export const CORE_TOOLS: readonly AgentTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listFilesTool,
  searchFilesTool,
  grepTool,
  createDirectoryTool,
  renameFileTool,
  deleteFileTool,
  runCommandTool,
  runInTerminalTool,
  killTerminalTool,
  readCommandOutputTool,
  readProblemsTool,
  readGraphTool,
  writeTodosTool,
  writeSummaryTool,
  taskCompleteTool,
];

// Tools a description or refusal might name: the core set (terminal tools included).
const KNOWN_TOOL_NAMES: readonly string[] = CORE_TOOLS.map((t) => t.name);

/**
 * A description for the tools actually offered: sentences that name a known tool the registry
 * lacks are left out, so a restricted profile never points the model at a phantom tool. With every
 * tool offered the text is unchanged.
 */
export function describeFor(description: string, offered: ReadonlySet<string>): string {
  const missing = KNOWN_TOOL_NAMES.filter((n) => !offered.has(n));
  if (missing.length === 0) return description;
  const names = new RegExp(`\\b(${missing.join('|')})\\b`);
  return description
    .split(/(?<=[.;])\s+/)
    .filter((sentence) => !names.test(sentence))
    .join(' ');
}

export class ToolRegistry {
  private readonly byName = new Map<string, AgentTool>();
  private readonly specs: readonly ToolSpec[];
  private readonly names: ReadonlySet<string>;

  constructor(readonly tools: readonly AgentTool[] = CORE_TOOLS) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`duplicate tool ${tool.name}`);
      this.byName.set(tool.name, tool);
    }
    this.names = new Set(this.byName.keys());
    // Built once and frozen: the same objects (and bytes) go out on every request.
    this.specs = Object.freeze(
      tools.map((t) => Object.freeze({ name: t.name, description: describeFor(t.description, this.names), parameters: t.parameters })),
    );
  }

  get(name: string): AgentTool | undefined {
    return this.byName.get(name);
  }

  definitions(): readonly ToolSpec[] {
    return this.specs;
  }

  /** Restricts to a subset (e.g. a read-only agent profile), keeping the registry's order. */
  only(names: readonly string[]): ToolRegistry {
    return new ToolRegistry(this.tools.filter((t) => names.includes(t.name)));
  }

  /** Parses, validates and runs one call; every failure becomes an error result, never a throw. */
  async run(name: string, rawArguments: string, ctx: ToolContext): Promise<ToolResult> {
    const tool = this.byName.get(name);
    if (!tool) return { text: `Unknown tool "${name}". Available: ${[...this.byName.keys()].join(', ')}`, isError: true };
    let args: unknown;
    try {
      args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
    } catch (e) {
      return { text: `Invalid JSON arguments for ${name}: ${(e as Error).message}`, isError: true };
    }
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
      return { text: `Invalid arguments for ${name}: ${issues}`, isError: true };
    }
    try {
      return await tool.execute(parsed.data, { ...ctx, offered: this.names });
    } catch (e) {
      if (e instanceof ToolError) return { text: e.message, isError: true };
      if (e instanceof WorkspaceError) return { text: `${e.code}: ${e.message}`, isError: true };
      return { text: `Error in ${name}: ${(e as Error).message ?? String(e)}`, isError: true };
    }
  }
}
