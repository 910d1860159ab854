-- One usage shape (contracts `usageSchema`): runs and sessions also count reasoning tokens, and the
-- event log names cost `costUsd` as the API does.
ALTER TABLE "Run" ADD COLUMN "reasoningTokens" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "AgentSession" ADD COLUMN "reasoningTokens" INTEGER NOT NULL DEFAULT 0;

-- Logs written before this: `usage.cost`, `usage.totals.cost`, `run.*.usage.cost` become `costUsd`.
UPDATE "Event"
SET "data" = jsonb_set(("data" - 'cost'::text) || jsonb_build_object('costUsd', "data"->'cost'),
                       '{totals}', (("data"->'totals') - 'cost'::text) || jsonb_build_object('costUsd', "data"->'totals'->'cost'))
WHERE "type" = 'usage' AND ("data"->'cost') IS NOT NULL;

UPDATE "Event"
SET "data" = jsonb_set("data", '{usage}', (("data"->'usage') - 'cost'::text) || jsonb_build_object('costUsd', "data"->'usage'->'cost'))
WHERE "type" IN ('run.done', 'run.failed', 'run.cancelled') AND ("data"->'usage'->'cost') IS NOT NULL;

-- Reasoning tokens of finished runs were only in their final event; carry them into the columns.
UPDATE "Run" r
SET "reasoningTokens" = COALESCE((
  SELECT max(("data"->'usage'->>'reasoningTokens')::int) FROM "Event" e
  WHERE e."runId" = r."id" AND e."type" IN ('run.done', 'run.failed', 'run.cancelled')), 0);

UPDATE "AgentSession" s
SET "reasoningTokens" = COALESCE((SELECT sum(r."reasoningTokens") FROM "Run" r WHERE r."sessionId" = s."id"), 0);
