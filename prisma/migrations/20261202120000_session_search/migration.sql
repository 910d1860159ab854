-- Session search (issue 14): full-text search over the event log, workspace-scoped.
-- The searchable text of an event is what a person or the agent said or did: user and assistant
-- message text, tool names with their arguments and results, summaries, step results and failures
-- (the first 32,000 characters of it, so one huge tool result cannot make indexing expensive).
-- Config 'simple' (lower-casing, no stemming, no stop words): the log is code, paths, identifiers,
-- error messages and any human language; English stemming would mangle identifiers ("parsing" ->
-- "pars") and drop words like "it" or "no" that matter in a query; prefix matching of the last
-- word in the query (`word:*`) gives back much of what stemming would.
-- One function says what an event's searchable text is: the generated column indexes it, and
-- ts_headline reads the same text for the snippets of the results it shows.
CREATE FUNCTION "event_search_text"("type" text, "data" jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(
    CASE "type"
      WHEN 'message.user' THEN coalesce("data"->>'content', '')
      WHEN 'message.assistant' THEN coalesce("data"->>'content', '')
      WHEN 'tool.start' THEN coalesce("data"->>'name', '') || ' ' || coalesce("data"->>'arguments', '')
      WHEN 'tool.end' THEN coalesce("data"->>'name', '') || ' ' || coalesce("data"->>'result', '')
      WHEN 'summary.written' THEN coalesce("data"->>'summary', '')
      WHEN 'run.done' THEN coalesce("data"->>'reply', '')
      WHEN 'run.failed' THEN coalesce("data"->>'code', '') || ' ' || coalesce("data"->>'message', '')
      WHEN 'step.begin' THEN coalesce("data"->>'content', '')
      WHEN 'step.end' THEN coalesce("data"->>'result', '')
      WHEN 'compaction' THEN coalesce("data"->>'summary', '')
      WHEN 'error' THEN coalesce("data"->>'code', '') || ' ' || coalesce("data"->>'message', '')
      ELSE ''
    END, 32000)
$$;
ALTER TABLE "Event" ADD COLUMN "search" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "event_search_text"("type", "data"))) STORED;
CREATE INDEX "Event_search_idx" ON "Event" USING GIN ("search");

-- A fork remembers the session it was made from (session_trace's lineage); a deleted source leaves it null.
ALTER TABLE "AgentSession" ADD COLUMN "forkedFromId" UUID;
ALTER TABLE "AgentSession" ADD CONSTRAINT "AgentSession_forkedFromId_fkey" FOREIGN KEY ("forkedFromId") REFERENCES "AgentSession"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "AgentSession_forkedFromId_idx" ON "AgentSession"("forkedFromId");
