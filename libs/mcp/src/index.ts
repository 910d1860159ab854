// H as an MCP client: external MCP servers configured per workspace, offered to the agent
// (README.md). H's own MCP server is libs/mcp-server: it builds on files and scm, which depend on
// the run pipeline that uses this client, so one library for both would be a dependency cycle.
export * from './client';
