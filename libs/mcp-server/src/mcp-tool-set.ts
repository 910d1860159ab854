// The seed's MCP tool set over H's own tools: the file and command tools of libs/tools (their path
// guards, secret-path refusals, command policy and output distillation) and the git and system tools
// of this folder, in MCP_SERVER_TOOL_SCOPES' order, each with MCP annotations derived from the
// agent's permission category so a client knows which calls to confirm with its user.
import { MCP_SERVER_TOOL_NAMES, MCP_SERVER_TOOL_SCOPES, type McpServerToolName, type TokenScope } from '@h/contracts';
import { CORE_TOOLS, ToolRegistry, type AgentTool, type ToolCategory } from '@h/tools';

export interface McpToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: McpToolAnnotations;
}

// Tools that only add (create_directory) or move without overwriting (rename_file refuses an
// existing target) are not destructive; overwriting, editing, deleting and commands may be.
const NOT_DESTRUCTIVE = new Set<string>(['create_directory', 'rename_file']);
const IDEMPOTENT = new Set<string>(['create_directory', 'write_file']);

/** The token scope a category needs: what the agent's `approve` mode would ask about needs write. */
export function scopeForCategory(category: ToolCategory): TokenScope {
  return category === 'read' ? 'read' : 'write';
}

function titleOf(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function annotationsFor(tool: AgentTool): McpToolAnnotations {
  const read = tool.category === 'read';
  return {
    title: titleOf(tool.name),
    readOnlyHint: read,
    destructiveHint: !read && !NOT_DESTRUCTIVE.has(tool.name),
    idempotentHint: read || IDEMPOTENT.has(tool.name),
    // Commands may reach the network (a workspace with egress); file and git tools stay in the workspace.
    openWorldHint: tool.category === 'command',
  };
}

export class McpToolSet {
  readonly registry: ToolRegistry;
  private readonly definitionList: readonly McpToolDefinition[];

  /** `extra`: the git and system tools, bound to the request's workspace. */
  constructor(extra: readonly AgentTool[]) {
    const byName = new Map<string, AgentTool>([...CORE_TOOLS, ...extra].map((t) => [t.name, t]));
    const tools = MCP_SERVER_TOOL_NAMES.map((name) => {
      const tool = byName.get(name);
      if (!tool) throw new Error(`MCP tool ${name} has no implementation`);
      // The contract's scope and the tool's own category must agree (one rule, two places).
      if (scopeForCategory(tool.category) !== MCP_SERVER_TOOL_SCOPES[name]) throw new Error(`MCP tool ${name}: scope and category disagree`);
      return tool;
    });
    // The registry drops sentences that point at tools it lacks (run_in_terminal, read_command_output).
    this.registry = new ToolRegistry(tools);
    this.definitionList = this.registry.definitions().map((spec) => {
      const tool = this.registry.get(spec.name) as AgentTool;
      const annotations = annotationsFor(tool);
      return { name: spec.name, title: annotations.title, description: spec.description, inputSchema: spec.parameters, annotations };
    });
  }

  definitions(): readonly McpToolDefinition[] {
    return this.definitionList;
  }

  scopeOf(name: string): TokenScope | null {
    return Object.hasOwn(MCP_SERVER_TOOL_SCOPES, name) ? MCP_SERVER_TOOL_SCOPES[name as McpServerToolName] : null;
  }
}
