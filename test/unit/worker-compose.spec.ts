import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// Docker restarts only containers that exit: the worker must be restartable (restart policy) and
// its healthcheck must ask the worker itself (GET /health on its loopback port), not Redis.
const worker = parse(readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8')).services.worker;

describe('docker-compose.yml worker service', () => {
  it('should restart the worker unless stopped and turn its health endpoint and stall exit on', () => {
    expect(worker.restart).toBe('unless-stopped');
    expect(worker.environment.WORKER_HEALTH_PORT).toBe('3002');
    expect(worker.environment.WORKER_STALL_EXIT_MS).toMatch(/^\$\{WORKER_STALL_EXIT_MS:-\d+\}$/);
  });

  it('should check health by asking the worker on that port', () => {
    expect(worker.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${worker.environment.WORKER_HEALTH_PORT}/health`);
  });
});
