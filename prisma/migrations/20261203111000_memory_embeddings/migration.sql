-- Memory ranking by meaning (issue 14): each memory's embedding from the configured embeddings
-- model (MEMORY_EMBEDDINGS_MODEL), made lazily when a run ranks memories, and valid while
-- "embeddedAt" is not older than "updatedAt" and the model is the configured one. A plain float
-- array: an owner keeps at most MEMORY_LIMITS.perOwner memories, so ranking compares them in the
-- worker without a vector index (pgvector is not needed for that, nor always installable).
ALTER TABLE "Memory" ADD COLUMN "embedding" DOUBLE PRECISION[];
ALTER TABLE "Memory" ADD COLUMN "embeddingModel" TEXT;
ALTER TABLE "Memory" ADD COLUMN "embeddedAt" TIMESTAMP(3);
