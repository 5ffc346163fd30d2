import { mkdir, mkdtemp, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confineLakePath } from '../../src/api/lakeRoots.js';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { buildFusionInput } from '../../src/engine/index.js';
import { planFusion, previewFusion } from '../../src/fusion/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { LakeSnapshot } from '../../src/search/index.js';
import { ErrorCode } from '../../src/util/errors.js';
import { catalogBackends } from '../support/catalogs.js';

/**
 * Issue 11/3: a lake file swapped for a symlink out of the roots after the mutation's path check
 * (before the queued ingest reads it, or after ingest, before a preview) is never read.
 */
describe('symlinks swapped in after validation', () => {
  let base: string;
  let lake: string;
  let outside: string;
  let db: CatalogDatabase;
  const embedder = new HashedNgramEmbedder();

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'graft-swap-'));
    lake = path.join(base, 'lake');
    outside = path.join(base, 'outside');
    await mkdir(path.join(lake, 'inner'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(lake, 'cities.csv'), 'city_id,city\n1,Oslo\n2,Bergen\n');
    await writeFile(path.join(lake, 'people.csv'), 'person,city_id\nAda,1\nBo,2\n');
    await writeFile(path.join(lake, 'inner', 'towns.csv'), 'town_id,town\n7,Tromsø\n');
    await writeFile(path.join(outside, 'secret.csv'), 'city_id,city\n99,S3CRET\n');
    await mkdir(path.join(outside, 'dir'));
    await writeFile(path.join(outside, 'dir', 'hidden.csv'), 'k,v\n1,H1DDEN\n');
    db = await catalogBackends.find((b) => b.name === 'pglite')!.open();
  });
  afterAll(async () => {
    await db?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('ingest: a file swapped after the check fails FORBIDDEN naming it; the others are ingested', async () => {
    const real = await confineLakePath(lake, [base + '/lake']);
    // Swap after validation, before the (queued) run reads: cities.csv -> outside file; a folder link too.
    await rename(path.join(lake, 'cities.csv'), path.join(lake, '.cities.orig'));
    await symlink(path.join(outside, 'secret.csv'), path.join(lake, 'cities.csv'));
    await symlink(path.join(outside, 'dir'), path.join(lake, 'linked'));
    // A symlink that stays inside the roots is read (under its own name).
    await symlink(path.join(lake, 'inner', 'towns.csv'), path.join(lake, 'alias.csv'));
    const summary = await ingestLake(db, real, { embedder, lakeRoots: [lake] });
    const errors = summary.errors.map((e) => e.message).join('\n');
    expect(errors).toMatch(/cities\.csv: resolves .*outside the lake roots/);
    expect(errors).toMatch(/linked\/hidden\.csv: resolves .*outside the lake roots/);
    const tables = await db.prisma.lakeTable.findMany({ include: { columns: true } });
    expect(tables.map((t) => t.name).sort()).toEqual(['alias', 'people', 'towns']);
    const samples = JSON.stringify(tables.flatMap((t) => t.columns.map((c) => c.sampleValues)));
    expect(samples).not.toMatch(/S3CRET|H1DDEN/);
    // Restore cities.csv for the next test.
    await unlink(path.join(lake, 'cities.csv'));
    await unlink(path.join(lake, 'linked'));
    await rename(path.join(lake, '.cities.orig'), path.join(lake, 'cities.csv'));
  });

  it('preview: a lake file swapped for an outside symlink after ingest is refused, no outside rows', async () => {
    await ingestLake(db, lake, { embedder, lakeRoots: [lake] });
    const snapshot = await LakeSnapshot.load(db);
    const ids = snapshot.tables.filter((t) => t.name === 'cities').map((t) => t.id);
    expect(ids).toHaveLength(1);
    const plan = planFusion(buildFusionInput(snapshot, ids, []));
    expect((await previewFusion(plan, 5)).rows.map((r) => r['city'])).toEqual(['Oslo', 'Bergen']);
    await rename(path.join(lake, 'cities.csv'), path.join(lake, '.cities.orig'));
    await symlink(path.join(outside, 'secret.csv'), path.join(lake, 'cities.csv'));
    const err = await previewFusion(plan, 5).catch((e) => e);
    expect(err.code).toBe(ErrorCode.FORBIDDEN);
    expect(err.message).toMatch(/cities\.csv: resolves .*outside the lake roots/);
    expect(JSON.stringify(err)).not.toContain('S3CRET');
    // The same link pointing inside the lake is read.
    await unlink(path.join(lake, 'cities.csv'));
    await symlink(path.join(lake, '.cities.orig'), path.join(lake, 'cities.csv'));
    expect((await previewFusion(plan, 5)).rows.map((r) => r['city'])).toEqual(['Oslo', 'Bergen']);
  });
});
