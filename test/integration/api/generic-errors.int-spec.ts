import { readFileSync } from 'node:fs';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { HttpClient, randomEmail, TEST_PASSWORD } from '../../support/http-client';
import { errorCode } from './team-fixture';

const MACHINE_DETAILS = /127\.0\.0\.1|:1\b|ECONNREFUSED|connect|postgres(ql)?:\/\/|prisma|pg_|at \w+ \(/i;

// Issue 8, point 6: what the database or a driver says about the machine goes to the log, never
// to whoever asked. A stack whose database does not answer shows what anyone can cause.
describe('generic answers when the database is down', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ env: { DATABASE_URL: 'postgresql://root@127.0.0.1:1/nowhere' } });
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should say which dependency is down on /api/ready, never the driver error, and log the error', async () => {
    const res = await new HttpClient(stack.url).get('/api/ready');
    expect(res.status).toBe(503);
    expect(errorCode(res)).toBe('NOT_READY');
    expect(res.body.error.message).toBe('postgres: unreachable');
    await waitFor('the readiness failure in the log', async () => readFileSync(stack.logFile, 'utf8').includes('readiness check failed'));
    expect(readFileSync(stack.logFile, 'utf8')).toMatch(/reach database server at 127\.0\.0\.1:1/);
  });

  it('should answer 500 with the generic message to a request that needs the database', async () => {
    const res = await new HttpClient(stack.url).post('/api/v1/auth/signup', { email: randomEmail('down'), password: TEST_PASSWORD, name: 'Down' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong on our side; it was logged.' } });
    expect(res.text).not.toMatch(MACHINE_DETAILS);
  });
});
