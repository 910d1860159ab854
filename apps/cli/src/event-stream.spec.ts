import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from './api-client';
import { sessionEvents } from './event-stream';

const envelope = (seq: number, type = 'tool.start') => ({ sessionId: 's1', seq, runId: 'r1', ts: '2026-12-01T10:00:00.000Z', type, data: {} });

describe(sessionEvents.name, () => {
  let server: Server;
  let url = '';
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(`${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests.length === 1) {
        // A first connection that carries two events, a delta, a heartbeat, then drops.
        res.write('retry: 2000\n\n');
        res.write(`id: 1\ndata: ${JSON.stringify(envelope(1))}\n\n`);
        res.write(`event: delta\ndata: ${JSON.stringify({ type: 'text.delta', data: { delta: 'x' } })}\n\n: heartbeat\n\n`);
        res.end(`id: 2\ndata: ${JSON.stringify(envelope(2))}\n\n`);
      } else {
        // The resumed one replays from the last seq seen (a repeat of 2 is passed over).
        res.write(`id: 2\ndata: ${JSON.stringify(envelope(2))}\n\nid: 3\ndata: ${JSON.stringify(envelope(3, 'run.done'))}\n\n`);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('should yield each persisted event once, skip deltas, and resume from the last seq after a drop', async () => {
    const seen: Array<[number, string]> = [];
    for await (const e of sessionEvents(new ApiClient(url, 'h_tok'), 's1')) {
      seen.push([e.seq, e.type]);
      if (e.type === 'run.done') break;
    }
    expect(seen).toEqual([
      [1, 'tool.start'],
      [2, 'tool.start'],
      [3, 'run.done'],
    ]);
    expect(requests).toEqual(['/api/v1/sessions/s1/events/stream?after=0 Bearer h_tok', '/api/v1/sessions/s1/events/stream?after=2 Bearer h_tok']);
  });
});
