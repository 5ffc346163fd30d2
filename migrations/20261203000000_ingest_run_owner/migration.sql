-- The process that owns a run, so a catalog opened after a crash can tell a run left `running`
-- by a dead process (marked `interrupted`) from one another live process is still doing.
ALTER TABLE "ingest_run" ADD COLUMN "owner_pid" INTEGER;
ALTER TABLE "ingest_run" ADD COLUMN "owner_host" TEXT;
ALTER TABLE "ingest_run" ADD COLUMN "owner_started_at" TIMESTAMPTZ(3);

-- Readers filter on the state of a table ('pending' until its embeddings are written).
CREATE INDEX "lake_table_state_idx" ON "lake_table"("state");
