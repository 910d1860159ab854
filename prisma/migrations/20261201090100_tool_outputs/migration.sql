-- CreateTable
CREATE TABLE "ToolOutput" (
    "id" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "runId" UUID,
    "callId" TEXT,
    "label" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolOutput_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ToolOutput_sessionId_number_key" ON "ToolOutput"("sessionId", "number");

-- AddForeignKey
ALTER TABLE "ToolOutput" ADD CONSTRAINT "ToolOutput_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "AgentSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;



-- Full outputs used to travel inside `tool.end` events (data.fullOutput). Move each one into
-- ToolOutput under its `[cmd #N]` number and keep only the preview and the locator in the log.
INSERT INTO "ToolOutput" ("id", "sessionId", "number", "runId", "callId", "label", "bytes", "truncated", "content", "createdAt")
SELECT gen_random_uuid(), e."sessionId", (e."data"->>'outputId')::int, e."runId", e."data"->>'toolCallId',
       COALESCE(e."data"->>'outputLabel', e."data"->>'name', ''), octet_length(e."data"->>'fullOutput'), false,
       e."data"->>'fullOutput', e."ts"
FROM "Event" e
WHERE e."type" = 'tool.end' AND e."data" ? 'fullOutput' AND jsonb_typeof(e."data"->'outputId') = 'number'
ON CONFLICT ("sessionId", "number") DO NOTHING;

UPDATE "Event"
SET "data" = ("data" - 'fullOutput') || jsonb_build_object('outputBytes', octet_length("data"->>'fullOutput'), 'outputTruncated', false)
WHERE "type" = 'tool.end' AND "data" ? 'fullOutput';
