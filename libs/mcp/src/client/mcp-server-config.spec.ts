import { mcpConfigProblem, type McpServerConfig } from './mcp-server-config';

const stdio: McpServerConfig = { transport: 'stdio', command: 'node', args: ['server.js'], env: { A: '1' }, url: null, headers: null, hasStoredHeaders: false };
const http: McpServerConfig = { transport: 'http', command: null, args: [], env: {}, url: 'https://mcp.example.org/mcp', headers: { Authorization: 'Bearer x' }, hasStoredHeaders: false };

describe(mcpConfigProblem.name, () => {
  it('should accept a stdio and an http configuration that fit their transport', () => {
    expect(mcpConfigProblem(stdio)).toBeNull();
    expect(mcpConfigProblem(http)).toBeNull();
    expect(mcpConfigProblem({ ...http, headers: undefined, hasStoredHeaders: true })).toBeNull();
  });

  it('should name the field when a stdio server lacks a command or carries http fields', () => {
    expect(mcpConfigProblem({ ...stdio, command: null })).toMatch(/^command: /);
    expect(mcpConfigProblem({ ...stdio, url: 'https://x.example.org' })).toMatch(/^url: /);
    expect(mcpConfigProblem({ ...stdio, headers: { A: 'b' } })).toMatch(/^headers: /);
    expect(mcpConfigProblem({ ...stdio, headers: undefined, hasStoredHeaders: true })).toMatch(/headers/);
    expect(mcpConfigProblem({ ...stdio, env: { 'BAD-NAME': 'x' } })).toMatch(/^env/);
  });

  it('should refuse http URLs that are not http(s), carry user info, and headers H sets itself', () => {
    expect(mcpConfigProblem({ ...http, url: null })).toMatch(/^url: /);
    expect(mcpConfigProblem({ ...http, url: 'file:///etc/passwd' })).toMatch(/^url: /);
    expect(mcpConfigProblem({ ...http, url: 'https://u:p@mcp.example.org/' })).toMatch(/^url: /);
    expect(mcpConfigProblem({ ...http, headers: { 'Content-Length': '1' } })).toMatch(/^headers/);
    expect(mcpConfigProblem({ ...http, headers: { 'X-A': 'line\r\nInjected: 1' } })).toMatch(/^headers/);
    expect(mcpConfigProblem({ ...http, command: 'node' })).toMatch(/^command: /);
    expect(mcpConfigProblem({ ...http, args: ['x'] })).toMatch(/^args: /);
  });
});
