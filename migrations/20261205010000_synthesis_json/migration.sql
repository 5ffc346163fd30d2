-- A stored synthesis is written once per answered question and only ever read back whole, by id
-- (src/api/syntheses.ts): nothing queries into it. JSONB converted each result (a few KB) to the
-- binary form such queries need, on every write; JSON keeps the text as sent (still validated).
-- The write is the one catalog statement a `synthesize` costs, and on the embedded catalog it runs
-- on the server's main thread.
ALTER TABLE "synthesis" ALTER COLUMN "result" TYPE JSON USING "result"::json;
