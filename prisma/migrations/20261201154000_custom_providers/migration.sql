-- Custom OpenAI-compatible providers per team (issue 11, point 5); sessions and presets name one.
-- AlterTable
ALTER TABLE "AgentSession" ADD COLUMN     "providerId" UUID;

-- AlterTable
ALTER TABLE "ModelPreset" ADD COLUMN     "providerId" UUID;

-- CreateTable
CREATE TABLE "CustomProvider" (
    "id" UUID NOT NULL,
    "teamId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "models" JSONB NOT NULL DEFAULT '[]',
    "ciphertext" BYTEA,
    "iv" BYTEA,
    "authTag" BYTEA,
    "keyId" TEXT,
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomProvider_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CustomProvider_teamId_name_key" ON "CustomProvider"("teamId", "name");

-- AddForeignKey
ALTER TABLE "ModelPreset" ADD CONSTRAINT "ModelPreset_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "CustomProvider"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomProvider" ADD CONSTRAINT "CustomProvider_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;


