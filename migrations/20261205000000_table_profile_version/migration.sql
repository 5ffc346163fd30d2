-- Which version of the profiler wrote a table's profile (PROFILE_VERSION, src/lake/profileVersion.ts).
-- An ingest profiles an unchanged file again when an older version profiled it, and `graft
-- doctor` names such tables. Tables stored before this column: version 1 when they hold what
-- version 1 stores (a CSV table its read options, migration 20261204010000), else 0.
ALTER TABLE "lake_table" ADD COLUMN "profile_version" INTEGER NOT NULL DEFAULT 0;
UPDATE "lake_table" SET "profile_version" = 1 WHERE "format" <> 'csv' OR "csv_options" IS NOT NULL;
