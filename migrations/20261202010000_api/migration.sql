-- CreateTable
CREATE TABLE "api_token" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "grants" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "synthesis" (
    "id" UUID NOT NULL,
    "question" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "token_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "synthesis_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token"("token_hash");

-- CreateIndex
CREATE INDEX "synthesis_token_id_idx" ON "synthesis"("token_id");

-- CreateIndex
CREATE INDEX "synthesis_created_at_idx" ON "synthesis"("created_at");

-- AddForeignKey
ALTER TABLE "synthesis" ADD CONSTRAINT "synthesis_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "api_token"("id") ON DELETE SET NULL ON UPDATE CASCADE;
