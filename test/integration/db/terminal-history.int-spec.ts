import { randomUUID } from 'node:crypto';
import { AppConfig, parseEnv } from '@h/config';
import { TERMINAL_HISTORY_MAX_BYTES, type TerminalInfo } from '@h/contracts';
import { RedisService, TerminalHistoryRepository } from '@h/db';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/test-env';

// The Redis side of terminal history: one copy by position whatever the api processes offer, a
// bounded tail that never starts mid-character, and a dismissal that nothing brings back.
describe(TerminalHistoryRepository.name, () => {
  let redis: RedisService;
  let repo: TerminalHistoryRepository;
  const workspaceId = `ws-${randomUUID()}`;
  const info = (id: string): TerminalInfo => ({ id, workspaceId, title: 'Terminal', openedBy: null, agent: false, sessionId: null, command: null, cols: 80, rows: 24, createdAt: new Date().toISOString() });

  beforeAll(() => {
    redis = new RedisService(new AppConfig(parseEnv({ NODE_ENV: 'test', DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `h-test-hist-${randomUUID().slice(0, 8)}` })));
    repo = new TerminalHistoryRepository(redis);
  });

  afterAll(() => redis.onModuleDestroy());

  it('should keep output once when several processes offer overlapping chunks', async () => {
    const t = info('a');
    await repo.append(t, 'hello ', 6);
    await repo.append(t, 'hello wor', 9); // another process, batched differently
    await repo.append(t, 'wor', 9); // already kept
    await repo.append(t, 'ld', 11);
    expect(await repo.read(workspaceId, 'a')).toMatchObject({ text: 'hello world', end: 11, info: { id: 'a' } });
  });

  it('should keep only the last TERMINAL_HISTORY_MAX_BYTES, starting on a whole character', async () => {
    const t = info('b');
    const big = 'é'.repeat(TERMINAL_HISTORY_MAX_BYTES / 2) + 'x'; // 2 bytes each, then one: the cut falls mid-character
    await repo.append(t, 'old', 3);
    await repo.append(t, big, 3 + big.length);
    const saved = await repo.read(workspaceId, 'b');
    expect(saved?.text.startsWith('é')).toBe(true);
    expect(saved?.text.endsWith('éx')).toBe(true);
    expect(Buffer.byteLength(saved?.text ?? '')).toBeLessThanOrEqual(TERMINAL_HISTORY_MAX_BYTES);
    expect(saved?.end).toBe(3 + big.length);
  });

  it('should not save a dismissed terminal again', async () => {
    const t = info('c');
    await repo.append(t, 'bye', 3);
    await repo.remove(workspaceId, 'c', true);
    await repo.saveInfo({ ...t, ended: { exitCode: 0, signal: null, at: new Date().toISOString() } });
    await repo.append(t, ' again', 9);
    expect(await repo.read(workspaceId, 'c')).toBeNull();
    expect((await repo.list(workspaceId)).map((s) => s.info.id).sort()).toEqual(['a', 'b']);
  });
});
