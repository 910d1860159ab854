import { checkEnvelope } from './mcp-jsonrpc';

describe(checkEnvelope.name, () => {
  it('should accept requests, notifications and answers of the methods H serves', () => {
    expect(checkEnvelope({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual({ ok: true });
    expect(checkEnvelope({ jsonrpc: '2.0', id: 'a-1', method: 'tools/call', params: { name: 'read_file', arguments: { path: 'a' } } })).toEqual({ ok: true });
    expect(checkEnvelope({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ ok: true });
    expect(checkEnvelope({ jsonrpc: '2.0', id: 4, result: {} })).toEqual({ ok: true });
    expect(checkEnvelope({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'no' } })).toEqual({ ok: true });
  });

  it('should name the field when a message is not one H serves', () => {
    expect(checkEnvelope({ jsonrpc: '2.0', id: 2, method: 'resources/list' })).toMatchObject({ ok: false, id: 2, message: expect.stringMatching(/^body\.method is not a method this server serves/) });
    expect(checkEnvelope({ jsonrpc: '1.0', id: 3, method: 'ping' })).toMatchObject({ ok: false, id: 3, message: expect.stringMatching(/^body\.jsonrpc /) });
    expect(checkEnvelope({ jsonrpc: '2.0', id: 3, method: 'ping', extra: 1 })).toMatchObject({ ok: false, message: expect.stringContaining('extra') });
    expect(checkEnvelope({ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' })).toMatchObject({ ok: false, id: null, message: expect.stringMatching(/^body\.id /) });
    expect(checkEnvelope({ jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' })).toMatchObject({ ok: false, message: expect.stringMatching(/^body\.params /) });
    expect(checkEnvelope(42)).toMatchObject({ ok: false, message: expect.stringContaining('must be a JSON-RPC 2.0 message') });
  });

  it('should refuse batches, which MCP no longer has, and values the input policy refuses', () => {
    expect(checkEnvelope([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toMatchObject({ ok: false, message: expect.stringContaining('batches') });
    expect(checkEnvelope({ jsonrpc: '2.0', id: 1, method: 'ping', params: { a: 'x\u0000' } })).toMatchObject({ ok: false, id: 1, message: expect.stringContaining('NUL') });
  });
});
