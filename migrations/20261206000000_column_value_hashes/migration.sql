-- The value index beyond a column's top values: the hashes of every distinct text value of a
-- column with more than top_values holds (PROFILE_VERSION 2, src/lake/profileVersion.ts). Columns
-- profiled before stay null until an ingest profiles their table again.
ALTER TABLE "lake_column" ADD COLUMN "value_hashes" BYTEA;
