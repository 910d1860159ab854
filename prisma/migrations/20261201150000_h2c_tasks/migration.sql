-- h2c tasks: the task ids of /v1/task/* mapped to the H session and run each is (issue 11, point 1).
-- CreateTable
CREATE TABLE "H2cTask" (
    "id" TEXT NOT NULL,
    "teamId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "sessionId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "H2cTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "H2cTask_runId_key" ON "H2cTask"("runId");

-- CreateIndex
CREATE INDEX "H2cTask_teamId_idx" ON "H2cTask"("teamId");

-- AddForeignKey
ALTER TABLE "H2cTask" ADD CONSTRAINT "H2cTask_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "H2cTask" ADD CONSTRAINT "H2cTask_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
