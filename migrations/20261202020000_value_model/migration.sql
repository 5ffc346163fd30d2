-- CreateTable
CREATE TABLE "value_model" (
    "id" UUID NOT NULL,
    "lake_fingerprint" TEXT NOT NULL,
    "feature_version" INTEGER NOT NULL,
    "input_dim" INTEGER NOT NULL,
    "sampler" TEXT NOT NULL,
    "gamma" DOUBLE PRECISION NOT NULL,
    "trajectories" INTEGER NOT NULL,
    "transitions" INTEGER NOT NULL,
    "held_out_mape" DOUBLE PRECISION NOT NULL,
    "train_ms" INTEGER NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "onnx" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "value_model_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "value_model_lake_fingerprint_created_at_idx" ON "value_model"("lake_fingerprint", "created_at");
