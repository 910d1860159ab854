import { useMigrationDatabase } from '../../support/migration-database';

// Logs written before the one usage shape name cost `cost`; the migration renames it `costUsd` in
// usage events and run ends, and carries finished runs’ reasoning tokens into the new columns.
const TARGET = '20261201120600_usage_one_shape';

describe(`migration ${TARGET}`, () => {
  const m = useMigrationDatabase('usage');

  it('should rename cost to costUsd in the log and count finished runs’ reasoning tokens on runs and sessions', async () => {
    await m.upTo(TARGET);
    const session = await m.seedSession();
    const run = '00000000-0000-4000-8000-000000000005';
    await m.db().query(`INSERT INTO "Run" (id, "sessionId", "teamId", "userId", status, "updatedAt")
      VALUES ($1, $2, '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'completed', now())`, [run, session]);
    const totals = { requests: 1, promptTokens: 10, completionTokens: 9, cacheHitTokens: 0, cacheMissTokens: 10, reasoningTokens: 7 };
    await m.db().query(`INSERT INTO "Event" ("sessionId", seq, "runId", type, data) VALUES ($1, 1, $2, 'usage', $3), ($1, 2, $2, 'run.done', $4), ($1, 3, $2, 'note', $5)`, [
      session,
      run,
      JSON.stringify({ request: { promptTokens: 10, completionTokens: 9, cacheHitTokens: 0, cacheMissTokens: 10 }, cost: 0.25, totals: { ...totals, cost: 0.25 }, contextTokens: 5, contextWindow: 100 }),
      JSON.stringify({ summary: null, reply: 'done', usage: { ...totals, cost: 0.25 } }),
      JSON.stringify({ cost: 'not a usage event: left alone' }),
    ]);

    await m.apply(TARGET);

    const events = (await m.db().query(`SELECT seq, data FROM "Event" ORDER BY seq`)).rows;
    expect(events[0].data).toEqual({
      request: { promptTokens: 10, completionTokens: 9, cacheHitTokens: 0, cacheMissTokens: 10 }, costUsd: 0.25, totals: { ...totals, costUsd: 0.25 }, contextTokens: 5, contextWindow: 100,
    });
    expect(events[1].data).toEqual({ summary: null, reply: 'done', usage: { ...totals, costUsd: 0.25 } });
    expect(events[2].data).toEqual({ cost: 'not a usage event: left alone' });
    expect((await m.db().query(`SELECT "reasoningTokens" FROM "Run"`)).rows).toEqual([{ reasoningTokens: 7 }]);
    expect((await m.db().query(`SELECT "reasoningTokens" FROM "AgentSession"`)).rows).toEqual([{ reasoningTokens: 7 }]);
  });
});
