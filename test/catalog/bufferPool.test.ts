import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';

/**
 * The embedded catalog's buffer pool is chosen per process: a one-shot CLI command opens with a
 * small one (faster to start), the next process, e.g. a server, with PostgreSQL's default. The
 * choice is a start parameter, never written into the data folder.
 */
describe('the embedded catalog buffer pool', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'graft-pool-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const sharedBuffers = async (db: Awaited<ReturnType<typeof openCatalog>>) =>
    (await db.sql.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0].shared_buffers;

  it('is small for a one-shot open and the default for the next one, and the data stays', async () => {
    const dataDir = path.join(home, 'db');
    const first = await openCatalog({ dataDir });
    expect(await sharedBuffers(first)).toBe('128MB');
    await first.close();
    const conf = await readFile(path.join(dataDir, 'postgresql.conf'), 'utf8');

    const brief = await openCatalog({ dataDir, bufferPool: 'small' });
    expect(await sharedBuffers(brief)).toBe('4MB');
    await brief.sql.exec("CREATE TABLE pool_probe (v text); INSERT INTO pool_probe VALUES ('kept')");
    await brief.close();
    expect(await readFile(path.join(dataDir, 'postgresql.conf'), 'utf8')).toBe(conf);

    const again = await openCatalog({ dataDir });
    expect(await sharedBuffers(again)).toBe('128MB');
    expect(await again.sql.query('SELECT v FROM pool_probe')).toEqual([{ v: 'kept' }]);
    await again.close();
  });
});
