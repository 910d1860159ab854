-- Session search reads only the searching workspace's part of the event log (issue 14's target:
-- p95 ≤ 50 ms over 1,000,000 events). Until now every page joined Event to AgentSession to learn
-- the workspace, so a query read every workspace's matches (or walked every workspace's newest
-- events) and threw most away. Each event now carries its session's workspace (a session never
-- moves), and both indexes a search page can use start with it:
--   * GIN ("workspaceId", "search") (btree_gin lets a GIN index hold the uuid): a rare word reads
--     only this workspace's matches;
--   * btree ("workspaceId", "id"): a common word walks this workspace's events newest first and
--     stops at the page's limit, never reading all of its matches.
-- btree_gin is a trusted contrib extension (Postgres 13+): the database owner may create it, and
-- managed Postgres services ship it.
CREATE EXTENSION IF NOT EXISTS btree_gin;

ALTER TABLE "Event" ADD COLUMN "workspaceId" UUID;
UPDATE "Event" e SET "workspaceId" = s."workspaceId" FROM "AgentSession" s WHERE s."id" = e."sessionId";

-- The appends (EventRepository.append, RunRepository's first message) set it from the session row
-- they already update; this trigger fills it for any other insert, so the column can never be
-- missing. The WHEN clause keeps the hot path free of the function call.
CREATE FUNCTION "event_workspace_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s."workspaceId" INTO NEW."workspaceId" FROM "AgentSession" s WHERE s."id" = NEW."sessionId";
  RETURN NEW;
END
$$;
CREATE TRIGGER "Event_workspace_fill" BEFORE INSERT ON "Event"
  FOR EACH ROW WHEN (NEW."workspaceId" IS NULL) EXECUTE FUNCTION "event_workspace_fill"();

ALTER TABLE "Event" ALTER COLUMN "workspaceId" SET NOT NULL;

CREATE INDEX "Event_workspaceId_search_idx" ON "Event" USING GIN ("workspaceId", "search");
CREATE INDEX "Event_workspaceId_id_idx" ON "Event" ("workspaceId", "id");
-- Searches are always workspace-scoped; one session's search walks (sessionId, seq).
DROP INDEX "Event_search_idx";
