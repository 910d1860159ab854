import { spawn } from 'node:child_process';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxProcess } from '@h/sandbox';
import { SandboxStdioTransport } from './sandbox-stdio.transport';

/** A real process with attached stdio, shaped like SandboxDriver.spawn's answer (here on the host, for the unit tier). */
function processOf(script: string): SandboxProcess {
  const child = spawn(process.execPath, ['-e', script], { stdio: 'pipe' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe(SandboxStdioTransport.name, () => {
  it('should exchange newline-delimited JSON-RPC and skip a line that is not JSON-RPC', async () => {
    const proc = processOf(`
      process.stdout.write('not json\\n');
      require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
        const m = JSON.parse(l);
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { echoed: m.method } }) + '\\n');
      });`);
    const transport = new SandboxStdioTransport(proc, 1024 * 1024);
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    transport.onmessage = (m) => messages.push(m);
    transport.onerror = (e) => errors.push(e);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await waitUntil(() => messages.length === 1);
    expect(messages[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { echoed: 'ping' } });
    expect(errors).toHaveLength(1);
    await transport.close();
  });

  it('should cut off a server whose line grows past the message limit, and report its stderr', async () => {
    const proc = processOf(`process.stderr.write('starting up\\n'); setInterval(() => process.stdout.write('x'.repeat(4096)), 1);`);
    const transport = new SandboxStdioTransport(proc, 64 * 1024);
    let closed = false;
    const errors: Error[] = [];
    transport.onclose = () => (closed = true);
    transport.onerror = (e) => errors.push(e);
    await transport.start();
    await waitUntil(() => closed);
    expect(errors[0].message).toMatch(/exceeded maximum size/);
    expect(transport.stderr).toBe('starting up');
    await expect(transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' })).rejects.toThrow(/ended/);
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!done()) throw new Error('condition not met');
}
