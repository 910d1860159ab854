-- A team's monthly budget in dollars (issue 15): null means none. Six decimals like Run.costUsd, so
-- a budget compares exactly with the costs it limits.
ALTER TABLE "Team" ADD COLUMN "monthlyBudgetUsd" DECIMAL(14,6);

-- The model a run asked (the session's at its first model request), so usage reports per model.
-- Runs from before this migration have none and report under "unknown".
ALTER TABLE "Run" ADD COLUMN "model" TEXT;
