import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/api/index.js';
import { SynthesisStore } from '../../src/api/syntheses.js';
import type { CatalogDatabase } from '../../src/catalog/index.js';
import type { SynthesisResult } from '../../src/engine/types.js';
import { catalogBackends } from '../support/catalogs.js';

/** A stored answer's shape, as much of it as storage looks at. */
function answer(question: string): SynthesisResult {
  return {
    question,
    intent: { graph: { version: 1, trees: [], edges: [] }, source: 'offline', warnings: [], elapsedMs: 1 },
    tables: [],
    score: 0.5,
    unsupportedAtoms: [],
    warnings: [],
    elapsedMs: 2,
    preview: { columns: ['n'], rows: [{ n: 12345678901234567890n }] },
  } as unknown as SynthesisResult;
}

/** Group-committed saves: every save resolves once its own row is stored, whatever the others do. */
describe.each(catalogBackends)('SynthesisStore on $name', (backend) => {
  let db: CatalogDatabase;
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(async () => db?.close());

  it('stores 40 concurrent saves, each under its own id, in fewer statements than saves', async () => {
    const store = new SynthesisStore(db);
    const token = await createApiToken(db, { name: 'saver', grants: ['*'] });
    const before = await db.prisma.synthesis.count();
    const saved = await Promise.all(Array.from({ length: 40 }, (_, i) => store.save(`question ${i}`, answer(`question ${i}`), i % 2 ? token.id : null)));
    expect(new Set(saved.map((s) => s.id)).size).toBe(40);
    expect(await db.prisma.synthesis.count()).toBe(before + 40);
    for (const [i, s] of saved.entries()) {
      const loaded = await store.load(s.id);
      expect(loaded).toMatchObject({ id: s.id, question: `question ${i}`, tokenId: i % 2 ? token.id : null });
      expect(loaded!.createdAt.getTime()).toBe(s.createdAt.getTime());
      // A BigInt preview cell too large for a number is kept as text.
      expect(loaded!.result.preview!.rows[0].n).toBe('12345678901234567890');
    }
    // Rows committed together share the statement: the 40 saves did not take 40 round trips.
    const rounds = await db.sql.query<{ n: number }>(
      'SELECT count(DISTINCT xmin::text)::int AS n FROM synthesis WHERE id = ANY($1::uuid[])',
      [saved.map((s) => s.id)],
    );
    expect(rounds[0].n).toBeLessThan(40);
  });

  it('writes a stream of saves one INSERT per write interval, not one per save', async () => {
    const store = new SynthesisStore(db, null, 200);
    const saves: Promise<{ id: string }>[] = [];
    // 20 answers, one every 5 ms: each write takes about a millisecond, so without the interval
    // nearly every save would be its own statement.
    for (let i = 0; i < 20; i++) {
      saves.push(store.save(`paced ${i}`, answer(`paced ${i}`), null));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const saved = await Promise.all(saves);
    const rounds = await db.sql.query<{ n: number }>(
      'SELECT count(DISTINCT xmin::text)::int AS n FROM synthesis WHERE id = ANY($1::uuid[])',
      [saved.map((s) => s.id)],
    );
    // The first save is written at once, the rest within the next interval or two.
    expect(rounds[0].n).toBeLessThanOrEqual(3);
  });

  it('a row that cannot be stored fails its own save only', async () => {
    const store = new SynthesisStore(db);
    const noSuchToken = randomUUID(); // violates the token foreign key
    const results = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) => store.save(`q${i}`, answer(`q${i}`), i === 4 ? noSuchToken : null)),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    for (const r of results) if (r.status === 'fulfilled') expect((await store.load(r.value.id))?.question).toBe(r.value.question);
    expect(await db.prisma.synthesis.count({ where: { tokenId: noSuchToken } })).toBe(0);
  });

  it('keeps syntheses for the retention period: an expired one is not served, and prune deletes only expired ones', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const store = new SynthesisStore(db, DAY);
    const [fresh, old1, old2] = await Promise.all(['fresh', 'old 1', 'old 2'].map((q) => store.save(q, answer(q), null)));
    await db.sql.query(`UPDATE synthesis SET created_at = now() - interval '2 days' WHERE id = ANY($1::uuid[])`, [[old1.id, old2.id]]);
    // Served until a prune runs? No: expired is gone at once.
    expect(await store.load(old1.id)).toBeNull();
    expect((await store.load(fresh.id))?.question).toBe('fresh');
    // A store that keeps everything still reads the backdated rows.
    const keepAll = new SynthesisStore(db);
    expect((await keepAll.load(old1.id))?.question).toBe('old 1');
    expect(await keepAll.prune()).toBe(0);
    const before = await db.prisma.synthesis.count();
    const expiredBefore = await db.prisma.synthesis.count({ where: { createdAt: { lt: new Date(Date.now() - DAY) } } });
    expect(expiredBefore).toBeGreaterThanOrEqual(2);
    expect(await store.prune()).toBe(expiredBefore);
    expect(await db.prisma.synthesis.count()).toBe(before - expiredBefore);
    expect(await db.prisma.synthesis.count({ where: { id: { in: [old1.id, old2.id] } } })).toBe(0);
    expect((await store.load(fresh.id))?.question).toBe('fresh');
    // More expired rows than one pruning statement deletes: all of them go.
    await db.sql.query(`INSERT INTO synthesis (id, question, result, created_at) SELECT gen_random_uuid(), 'bulk', '{}'::json, now() - interval '40 days' FROM generate_series(1, 5003)`);
    expect(await store.prune()).toBe(5003);
    expect(await db.prisma.synthesis.count({ where: { question: 'bulk' } })).toBe(0);
  });
});
