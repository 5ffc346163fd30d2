import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared Spider data, read at test time (never copied into the repo). */
export const SPIDER_DBS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data-raw/spider/database');
export const SPIDER_DEV = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data-raw/jar/spider/dev.json');
/** Three small dev databases; `singer` also exists in `concert_singer`, so the lake has a same-named pair. */
export const SMALL_DBS = ['concert_singer', 'pets_1', 'singer'];

export const spiderAvailable = existsSync(SPIDER_DBS) && existsSync(SPIDER_DEV);
export const SKIP_MESSAGE = `Spider data not found at ${SPIDER_DBS} / ${SPIDER_DEV}: bench lake tests skipped`;
if (!spiderAvailable) console.warn(SKIP_MESSAGE);

/** Writes the dev questions of `dbs` to `file` (in dev.json order); returns how many. */
export async function writeQuestionsFor(dbs: string[], file: string): Promise<number> {
  const all = JSON.parse(readFileSync(SPIDER_DEV, 'utf8')) as { db_id: string }[];
  const keep = all.filter((q) => dbs.includes(q.db_id));
  await writeFile(file, JSON.stringify(keep));
  return keep.length;
}
