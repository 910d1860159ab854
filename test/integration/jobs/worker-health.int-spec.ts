// Must stay the first import: the worker's run sweep reads the whole database, and in the shared
// one it re-enqueues runs other spec files left running, so "no active jobs" would depend on them.
import { OWN_DATABASE_NAME } from '../../support/own-database';
import { startStack, type TestStack } from '../../support/api-harness';
import { freePort } from '../../support/free-port';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { waitFor } from '../../support/wait-for';

// The worker's health endpoint, served by an in-process worker (the built one is covered by
// runs/untrusted-patterns): ok while the loop is free, 503 "lagging" right after it was blocked.

describe('worker /health', () => {
  let stack: TestStack;
  let port: number;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    drop = (await createIsolatedDatabase('own', OWN_DATABASE_NAME)).drop;
    port = await freePort();
    stack = await startStack({ worker: true, env: { WORKER_HEALTH_PORT: String(port), WORKER_HEALTH_MAX_LAG_MS: '100' } });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await drop?.();
  });

  const read = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    return { status: res.status, body: await res.json() };
  };

  it('should listen on loopback only and answer with lag, Redis and active jobs', async () => {
    // Redis answers within the check's 2 s unless this process is stalled (a full GC of a Jest
    // process late in a long in-band run has been seen to take longer): ask until it answered once.
    const res = await waitFor('the health check to reach Redis', async () => {
      const r = await read();
      return r.body.redis === 'ok' ? r : null;
    }, 30_000);
    expect(res.body).toMatchObject({ redis: 'ok', activeJobs: 0, maxLagMs: 100, eventLoopLagMs: { p50: expect.any(Number), p99: expect.any(Number), max: expect.any(Number) } });
    expect(res.status).toBe(res.body.status === 'ok' ? 200 : 503);
  });

  it('should answer 503 lagging after the event loop was blocked past the threshold', async () => {
    // This process is the worker's: block it as a runaway job would, twice the threshold at a time,
    // often enough (a tenth of the turns, for a few seconds) to move the p99.
    for (let i = 0; i < 30; i++) {
      const started = Date.now();
      while (Date.now() - started < 200) {
        // busy
      }
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    const res = await read();
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('lagging');
    expect(res.body.eventLoopLagMs.max).toBeGreaterThanOrEqual(100);
  });

  it('should answer 404 with the error shape for any other path', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/status`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
  });
});
