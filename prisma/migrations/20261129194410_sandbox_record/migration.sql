-- AlterTable
ALTER TABLE "Sandbox" ADD COLUMN     "record" JSONB NOT NULL DEFAULT '{}';
