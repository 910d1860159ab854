import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorBody } from './app.exception';

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.'],
};

/**
 * Requests Node's HTTP parser refuses before any middleware runs (a NUL or line break in a
 * header or the path, oversized headers) got a bare "400 Bad Request" with no body; they get the
 * one error shape like every other refusal.
 */
export function installClientErrorAnswer(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, code, message] = ANSWERS[err.code ?? ''] ?? [400, 'BAD_REQUEST', 'The request is malformed HTTP.'];
    const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
