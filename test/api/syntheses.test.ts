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
});
