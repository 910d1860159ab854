import { startStack, TestStack } from '../../support/api-harness';
import { createToken, TeamFixture, teamWithRoles } from '../api/team-fixture';
import { postMcp } from './mcp-fixture';

const BODY_MAX = 4096;
const RATE = 6;

// The MCP endpoint's own limits, each answered as a JSON-RPC error whose data.code names it (no
// sandbox is needed for any of them).
describe('MCP server limits', () => {
  let stack: TestStack;
  let f: TeamFixture;

  beforeAll(async () => {
    stack = await startStack({ env: { MCP_BODY_MAX_BYTES: String(BODY_MAX), MCP_RATE_LIMIT_PER_MINUTE: String(RATE) } });
    f = await teamWithRoles(stack.url, 'mcplimits');
  });

  afterAll(async () => {
    await stack?.close();
  });

  const bound = async () => `Bearer ${(await createToken(f.member, f.teamId, { name: 'mcp', scopes: ['read'], workspaceId: f.workspaceId })).secret}`;
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });

  it('should answer a ping, and refuse bodies that are too large, not JSON or not a message it serves', async () => {
    const auth = { authorization: await bound() };
    const ok = await postMcp(stack.url, ping, auth);
    expect({ status: ok.status, body: ok.json }).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 7, result: {} } });

    const big = await postMcp(stack.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_file', arguments: { path: 'a', content: 'x'.repeat(BODY_MAX) } } }), auth);
    expect({ status: big.status, error: big.json?.error }).toEqual({
      status: 413,
      error: { code: -32000, message: `The request body is larger than ${BODY_MAX} bytes (MCP_BODY_MAX_BYTES).`, data: { code: 'PAYLOAD_TOO_LARGE', limit: BODY_MAX } },
    });
    const notJson = await postMcp(stack.url, '{"jsonrpc":', auth);
    expect({ status: notJson.status, code: notJson.json?.error?.code, data: notJson.json?.error?.data }).toEqual({ status: 400, code: -32700, data: { code: 'INVALID_JSON' } });
    const unknownMethod = await postMcp(stack.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/list' }), auth);
    expect({ status: unknownMethod.status, id: unknownMethod.json?.id, code: unknownMethod.json?.error?.code, data: unknownMethod.json?.error?.data }).toEqual({ status: 400, id: 2, code: -32600, data: { code: 'VALIDATION_FAILED' } });
    expect(unknownMethod.json.error.message).toContain('body.method is not a method this server serves');
    const extraField = await postMcp(stack.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', sneaky: true }), auth);
    expect({ status: extraField.status, data: extraField.json?.error?.data }).toEqual({ status: 400, data: { code: 'VALIDATION_FAILED' } });
    const form = await postMcp(stack.url, 'a=b', { ...auth, 'content-type': 'application/x-www-form-urlencoded' });
    expect({ status: form.status, data: form.json?.error?.data }).toEqual({ status: 415, data: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('should answer 429 with a JSON-RPC error and Retry-After past MCP_RATE_LIMIT_PER_MINUTE requests of one token', async () => {
    const auth = { authorization: await bound() };
    for (let i = 0; i < RATE; i++) expect((await postMcp(stack.url, ping, auth)).status).toBe(200);
    const limited = await postMcp(stack.url, ping, auth);
    expect({ status: limited.status, code: limited.json?.error?.code, data: { ...limited.json?.error?.data, retryAfterSeconds: undefined } }).toEqual({
      status: 429,
      code: -32000,
      data: { code: 'RATE_LIMITED', limit: RATE, retryAfterSeconds: undefined },
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token of the same team has its own budget.
    expect((await postMcp(stack.url, ping, { authorization: await bound() })).status).toBe(200);
  });
});
