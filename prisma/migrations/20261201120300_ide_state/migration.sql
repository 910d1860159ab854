-- The IDE's server-side client state: one document per user and workspace, and per-user editor
-- preferences. Both go with their user (and workspace) when those are deleted.
CREATE TABLE "IdeState" (
    "userId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "state" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdeState_pkey" PRIMARY KEY ("userId","workspaceId")
);

CREATE TABLE "UserPreference" (
    "userId" UUID NOT NULL,
    "preferences" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UserPreference_pkey" PRIMARY KEY ("userId")
);

CREATE INDEX "IdeState_workspaceId_idx" ON "IdeState"("workspaceId");

ALTER TABLE "IdeState" ADD CONSTRAINT "IdeState_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "IdeState" ADD CONSTRAINT "IdeState_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "UserPreference" ADD CONSTRAINT "UserPreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
