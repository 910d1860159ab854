-- Step-by-step mode as a session option (issue 12, point 4); each run's own choice is on its message.user event.
-- AlterTable
ALTER TABLE "AgentSession" ADD COLUMN     "stepMode" BOOLEAN NOT NULL DEFAULT false;
