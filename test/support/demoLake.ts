import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildDemoLake, DEMO_LAKE_GOLD } from '../../scripts/build-demo-lake.js';

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
