-- Sub-agents are runs of their own (issue 12): a child run points at the run that delegated it,
-- the tool call it answers and its profile; the parent waits for its children without a worker.
ALTER TYPE "RunStatus" ADD VALUE 'waiting_children' AFTER 'waiting_permission';
ALTER TABLE "Run" ADD COLUMN "parentRunId" UUID;
ALTER TABLE "Run" ADD COLUMN "parentToolCallId" TEXT;
ALTER TABLE "Run" ADD COLUMN "profile" TEXT;
ALTER TABLE "Run" ADD CONSTRAINT "Run_parentRunId_fkey" FOREIGN KEY ("parentRunId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "Run_parentRunId_idx" ON "Run"("parentRunId");
