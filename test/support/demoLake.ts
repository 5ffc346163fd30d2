import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildDemoLake, DEMO_LAKE_GOLD } from '../../scripts/build-demo-lake.js';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';

export interface DemoGold {
  joins: { from: string; to: string }[];
  acceptableJoins: { from: string; to: string }[];
  nonJoins: { from: string; to: string }[];
  unions: [string, string][];
  nonUnions: [string, string][];
  questions: { id: string; question: string; tables: string[]; expectedRowCount: number; sql: string }[];
}

export async function makeDemoLake(): Promise<{ dir: string; gold: DemoGold }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'graft-demo-'));
  await buildDemoLake(dir);
  const gold = JSON.parse(await readFile(DEMO_LAKE_GOLD, 'utf8')) as DemoGold;
  return { dir, gold };
}

/** The demo lake ingested into a fresh in-memory PGlite catalog, for suites that ask the engine. */
export interface DemoCatalog {
  db: CatalogDatabase;
  embedder: HashedNgramEmbedder;
  lake: string;
  gold: DemoGold;
  close(): Promise<void>;
}

export async function openDemoCatalog(): Promise<DemoCatalog> {
  const { dir: lake, gold } = await makeDemoLake();
  const db = await openCatalog({ dataDir: 'memory://' });
  const embedder = new HashedNgramEmbedder();
  await ingestLake(db, lake, { embedder });
  return {
    db,
    embedder,
    lake,
    gold,
    async close() {
      await db.close();
      await rm(lake, { recursive: true, force: true });
    },
  };
}
