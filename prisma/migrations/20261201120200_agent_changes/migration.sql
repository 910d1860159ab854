-- AlterTable
ALTER TABLE "Run" ADD COLUMN "checkpointId" TEXT;

-- CreateTable
CREATE TABLE "AgentChange" (
    "id" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "fromPath" TEXT,
    "before" JSONB NOT NULL,
    "after" JSONB NOT NULL,
    "added" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'applied',
    "decidedById" UUID,
    "decidedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AgentChange_runId_createdAt_idx" ON "AgentChange"("runId", "createdAt");

-- CreateIndex
CREATE INDEX "AgentChange_sessionId_createdAt_idx" ON "AgentChange"("sessionId", "createdAt");

-- AddForeignKey
ALTER TABLE "AgentChange" ADD CONSTRAINT "AgentChange_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "AgentSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentChange" ADD CONSTRAINT "AgentChange_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
