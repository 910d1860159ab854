import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpErrorCode } from '@h/contracts';
import { errorBody, errorStatus } from './error-body';

const ANSWERS: Record<string, [HttpErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ['HEADERS_TOO_LARGE', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'The request took too long to arrive.'],
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
    const [code, message] = ANSWERS[err.code ?? ''] ?? ['BAD_REQUEST', 'The request is malformed HTTP.'];
    const status = errorStatus(code);
    const body = JSON.stringify(errorBody(code, message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
