-- Facts about how the catalog's derived data was made (key -> value), such as the revision of
-- the join / union rules its edges were computed with: an ingest by newer rules re-derives them.
CREATE TABLE "catalog_state" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_state_pkey" PRIMARY KEY ("key")
);
