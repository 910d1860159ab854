-- A session's engine: 'h' (H's agent loop) or 'claude-code' (the Claude Code CLI in the sandbox).
ALTER TABLE "AgentSession" ADD COLUMN "engine" TEXT NOT NULL DEFAULT 'h';
