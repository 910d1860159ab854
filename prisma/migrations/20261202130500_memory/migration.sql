-- Persistent memory (issue 14, point 1): a category, the normalised key a spelling variant merges
-- into, one live row per (team, scope, owner, key), and the indexes recall ranks with.
ALTER TABLE "Memory" ADD COLUMN "category" TEXT NOT NULL DEFAULT 'general';
ALTER TABLE "Memory" ADD COLUMN "normKey" TEXT NOT NULL DEFAULT '';
UPDATE "Memory" SET "normKey" = lower("key");

-- The owner is the user for user memory and the workspace for project memory; a forgotten
-- (soft-deleted) row keeps its history without blocking the key from being remembered again.
-- Partial and expression indexes are not expressible in schema.prisma: they live here only.
CREATE UNIQUE INDEX "Memory_live_key" ON "Memory" ("teamId", "scope", COALESCE("userId", "workspaceId"), "normKey") WHERE "deletedAt" IS NULL;
CREATE INDEX "Memory_userId_idx" ON "Memory" ("userId");

-- Full-text search over key, content and tags ('simple': memories mix code words and languages).
CREATE INDEX "Memory_fts_idx" ON "Memory" USING GIN (to_tsvector('simple', "key" || ' ' || "content"));

-- Trigram similarity for near-duplicate merging and fuzzy recall (pg_trgm ships with Postgres' contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Memory_content_trgm_idx" ON "Memory" USING GIN ("content" gin_trgm_ops);
