-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "vector";

-- CreateTable
CREATE TABLE "source" (
    "id" UUID NOT NULL,
    "root_path" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "source_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lake_table" (
    "id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "row_count" BIGINT NOT NULL,
    "profiled_rows" BIGINT NOT NULL,
    "column_count" INTEGER NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'ready',
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lake_table_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lake_column" (
    "id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "logical_type" TEXT NOT NULL,
    "null_share" DOUBLE PRECISION NOT NULL,
    "distinct_estimate" DOUBLE PRECISION NOT NULL,
    "uniqueness" DOUBLE PRECISION NOT NULL,
    "sample_values" TEXT[],
    "top_values" TEXT[],
    "minhash" INTEGER[],
    "numeric_min" DOUBLE PRECISION,
    "numeric_max" DOUBLE PRECISION,
    "avg_length" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "lake_column_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "column_embedding" (
    "column_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "embedding" vector(256) NOT NULL,

    CONSTRAINT "column_embedding_pkey" PRIMARY KEY ("column_id")
);

-- CreateTable
CREATE TABLE "join_edge" (
    "id" UUID NOT NULL,
    "from_column_id" UUID NOT NULL,
    "to_column_id" UUID NOT NULL,
    "from_table_id" UUID NOT NULL,
    "to_table_id" UUID NOT NULL,
    "containment_from_to" DOUBLE PRECISION NOT NULL,
    "containment_to_from" DOUBLE PRECISION NOT NULL,
    "jaccard" DOUBLE PRECISION NOT NULL,
    "name_similarity" DOUBLE PRECISION NOT NULL,
    "type_compatible" BOOLEAN NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "join_edge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "union_edge" (
    "id" UUID NOT NULL,
    "table_a_id" UUID NOT NULL,
    "table_b_id" UUID NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "alignment" JSONB NOT NULL,

    CONSTRAINT "union_edge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ingest_run" (
    "id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "files_seen" INTEGER NOT NULL DEFAULT 0,
    "tables_ingested" INTEGER NOT NULL DEFAULT 0,
    "tables_skipped" INTEGER NOT NULL DEFAULT 0,
    "tables_failed" INTEGER NOT NULL DEFAULT 0,
    "rows_profiled" BIGINT NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "warnings" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "ingest_run_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "source_root_path_key" ON "source"("root_path");

-- CreateIndex
CREATE UNIQUE INDEX "lake_table_uri_key" ON "lake_table"("uri");

-- CreateIndex
CREATE INDEX "lake_table_name_idx" ON "lake_table"("name");

-- CreateIndex
CREATE INDEX "lake_table_fingerprint_idx" ON "lake_table"("fingerprint");

-- CreateIndex
CREATE INDEX "lake_column_name_idx" ON "lake_column"("name");

-- CreateIndex
CREATE UNIQUE INDEX "lake_column_table_id_ordinal_key" ON "lake_column"("table_id", "ordinal");

-- CreateIndex
CREATE INDEX "join_edge_from_table_id_idx" ON "join_edge"("from_table_id");

-- CreateIndex
CREATE INDEX "join_edge_to_table_id_idx" ON "join_edge"("to_table_id");

-- CreateIndex
CREATE UNIQUE INDEX "join_edge_from_column_id_to_column_id_key" ON "join_edge"("from_column_id", "to_column_id");

-- CreateIndex
CREATE INDEX "union_edge_table_b_id_idx" ON "union_edge"("table_b_id");

-- CreateIndex
CREATE UNIQUE INDEX "union_edge_table_a_id_table_b_id_key" ON "union_edge"("table_a_id", "table_b_id");

-- CreateIndex
CREATE INDEX "ingest_run_started_at_idx" ON "ingest_run"("started_at");

-- AddForeignKey
ALTER TABLE "lake_table" ADD CONSTRAINT "lake_table_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lake_column" ADD CONSTRAINT "lake_column_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "lake_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "column_embedding" ADD CONSTRAINT "column_embedding_column_id_fkey" FOREIGN KEY ("column_id") REFERENCES "lake_column"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "join_edge" ADD CONSTRAINT "join_edge_from_column_id_fkey" FOREIGN KEY ("from_column_id") REFERENCES "lake_column"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "join_edge" ADD CONSTRAINT "join_edge_to_column_id_fkey" FOREIGN KEY ("to_column_id") REFERENCES "lake_column"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "join_edge" ADD CONSTRAINT "join_edge_from_table_id_fkey" FOREIGN KEY ("from_table_id") REFERENCES "lake_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "join_edge" ADD CONSTRAINT "join_edge_to_table_id_fkey" FOREIGN KEY ("to_table_id") REFERENCES "lake_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "union_edge" ADD CONSTRAINT "union_edge_table_a_id_fkey" FOREIGN KEY ("table_a_id") REFERENCES "lake_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "union_edge" ADD CONSTRAINT "union_edge_table_b_id_fkey" FOREIGN KEY ("table_b_id") REFERENCES "lake_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;
