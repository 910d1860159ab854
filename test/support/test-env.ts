// One place that says where tests find Postgres and Redis. Integration tests share one migrated
// database; each test creates its own users and teams with random ids, so tests never collide.
export const TEST_DATABASE_NAME = process.env.H_TEST_DATABASE ?? 'h_test';
export const ADMIN_DATABASE_URL = process.env.H_TEST_ADMIN_DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/postgres';
export const TEST_DATABASE_URL =
  process.env.H_TEST_DATABASE_URL ?? `postgresql://root@127.0.0.1:5432/${TEST_DATABASE_NAME}`;
export const TEST_REDIS_URL = process.env.H_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_LOG_DIR = process.env.H_TEST_LOG_DIR ?? `${process.cwd()}/tmp/test-logs`;
/** Where test stacks keep workspace disk images (one sub-dir per sandbox name prefix). */
export const TEST_DISK_DIR = process.env.H_TEST_DISK_DIR ?? `${process.cwd()}/tmp/test-disks`;
/** The e2e stack's disk images, relative to the checkout. */
export const E2E_DISK_DIR = 'tmp/e2e-disks';
/** The metrics token every test stack is started with (GET /api/metrics, the worker's /metrics). */
export const TEST_METRICS_TOKEN = 'h-test-metrics-token-0123456789';
