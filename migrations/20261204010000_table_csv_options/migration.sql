-- How to read a CSV table again (encoding, header, names for blank header cells, widened column
-- types): the options profiling settled on over the whole file. Fused SQL and previews use them
-- instead of sniffing the file's start on every request. Null for other formats; a CSV table
-- stored before this column existed is profiled once more by the next ingest of its folder.
ALTER TABLE "lake_table" ADD COLUMN "csv_options" JSONB;
