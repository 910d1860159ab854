-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "allowedHosts" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "EgressLog" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "port" INTEGER NOT NULL,
    "allowed" BOOLEAN NOT NULL,
    "reason" TEXT,
    "address" TEXT,
    "bytesIn" BIGINT NOT NULL DEFAULT 0,
    "bytesOut" BIGINT NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EgressLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EgressLog_workspaceId_createdAt_idx" ON "EgressLog"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "EgressLog_createdAt_idx" ON "EgressLog"("createdAt");

-- AddForeignKey
ALTER TABLE "EgressLog" ADD CONSTRAINT "EgressLog_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
