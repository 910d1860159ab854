-- A workspace's git remote and its encrypted credential (libs/git-remote).
CREATE TABLE "WorkspaceGitRemote" (
    "workspaceId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "branch" TEXT,
    "authKind" TEXT NOT NULL,
    "username" TEXT,
    "ciphertext" BYTEA,
    "iv" BYTEA,
    "authTag" BYTEA,
    "keyId" TEXT,
    "clonedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkspaceGitRemote_pkey" PRIMARY KEY ("workspaceId")
);

ALTER TABLE "WorkspaceGitRemote" ADD CONSTRAINT "WorkspaceGitRemote_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
