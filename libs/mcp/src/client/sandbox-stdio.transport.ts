import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxProcess } from '@h/sandbox';

/** What is kept of the server's stderr for an error message: its start, where a crash says why. */
const STDERR_KEPT_CHARS = 2048;

/**
 * The MCP stdio transport over a process that runs inside the workspace's sandbox
 * (SandboxDriver.spawn: a `docker exec` with attached stdio), instead of the SDK's
 * StdioClientTransport, which spawns on the host. Newline-delimited JSON-RPC as the spec says; a
 * line longer than `maxMessageBytes` (a server that never ends its line) cuts the server off rather
 * than growing the worker's memory.
 */
export class SandboxStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer: ReadBuffer;
  private stderrHead = '';
  private closed = false;

  constructor(
    private readonly process: SandboxProcess,
    maxMessageBytes: number,
  ) {
    this.buffer = new ReadBuffer({ maxBufferSize: maxMessageBytes });
  }

  /** The first characters the server wrote to stderr: why it failed, for the error it reports. */
  get stderr(): string {
    return this.stderrHead.trim();
  }

  async start(): Promise<void> {
    this.process.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.process.stderr.on('data', (chunk: Buffer) => {
      if (this.stderrHead.length < STDERR_KEPT_CHARS) this.stderrHead = (this.stderrHead + chunk.toString('utf8')).slice(0, STDERR_KEPT_CHARS);
    });
    this.process.stdin.on('error', (err: Error) => this.onerror?.(err));
    void this.process.exited.then(() => this.end());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the MCP server process has ended');
    await new Promise<void>((resolve, reject) => {
      this.process.stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  async close(): Promise<void> {
    await this.process.kill().catch(() => undefined);
    this.end();
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (err) {
      // A line past the size limit: the stream cannot be trusted after it.
      this.onerror?.(err as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        // A line that is not JSON-RPC (a server logging to stdout): skipped, as the SDK's own transport does.
        this.onerror?.(err as Error);
        continue;
      }
      if (!message) return;
      this.onmessage?.(message);
    }
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
