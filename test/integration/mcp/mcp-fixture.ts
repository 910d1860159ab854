import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The official SDK client, connected to H's MCP endpoint with an API token. */
export async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'h-int-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return client;
}

/** The text of a tool result (H's tools answer one text block). */
export function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** The JSON-RPC error a call was refused with: code and H's data.code. */
export async function refusal(call: Promise<unknown>): Promise<{ code: number; dataCode: string; message: string }> {
  try {
    await call;
  } catch (err) {
    if (err instanceof McpError) return { code: err.code, dataCode: (err.data as { code?: string } | undefined)?.code ?? '', message: err.message };
    throw err;
  }
  throw new Error('the call was not refused');
}

/** A raw POST to /api/mcp (for what the SDK client would not send). */
export async function postMcp(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: any; text: string }> {
  const res = await fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}
