// H as an MCP server: POST /api/mcp gives MCP clients H's workspace tools (README.md).
export { McpServerModule } from './mcp-server.module';
