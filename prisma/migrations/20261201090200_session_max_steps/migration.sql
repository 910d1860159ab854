-- Per-session step limit (model requests per run); null means the instance default.
ALTER TABLE "AgentSession" ADD COLUMN "maxSteps" INTEGER;
