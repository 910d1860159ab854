-- External MCP servers per workspace (issue 12, point 6): stdio in the sandbox, http through egress.
-- CreateTable
CREATE TABLE "McpServer" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "command" TEXT,
    "args" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "env" JSONB NOT NULL DEFAULT '{}',
    "url" TEXT,
    "headerNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "ciphertext" BYTEA,
    "iv" BYTEA,
    "authTag" BYTEA,
    "keyId" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "approval" TEXT NOT NULL DEFAULT 'ask',
    "statusState" TEXT NOT NULL DEFAULT 'unknown',
    "statusMessage" TEXT,
    "statusTools" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "toolCount" INTEGER,
    "checkedAt" TIMESTAMP(3),
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpServer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "McpServer_workspaceId_name_key" ON "McpServer"("workspaceId", "name");

-- AddForeignKey
ALTER TABLE "McpServer" ADD CONSTRAINT "McpServer_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
