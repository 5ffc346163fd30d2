import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acquireCatalogLock } from '../../../src/catalog/catalogLock.js';
import type { ServedEngine } from '../../../src/api/servedEngine.js';
import type { CatalogDatabase } from '../../../src/catalog/database.js';
import type { AskOptions, IntentResult, ScoreExplanation, SynthesisResult, TableFilter } from '../../../src/engine/types.js';
import { type IntentGraph, intentAtoms } from '../../../src/intent/index.js';

/**
 * TEST DOUBLE for the engine (src/engine is written separately; the API receives an ServedEngine
 * by injection). It computes something real from the catalog, simply: the tables of a question
 * are the granted tables whose names occur in it, their attributes the columns whose names
 * occur in it, the join steps the catalog's join edges between the chosen tables, and one
 * alternate: the granted table the strongest join edge leads to from a chosen one, with confidence
 * 0.5 (left out when `minAlternateConfidence` is above that). That is
 * enough to check what the API layer owns: shapes, storage, grants, timeouts, errors.
 *
 * The suites talk to it through `InstrumentedEngine`, which records calls and understands
 * magic words in a question: `sleep:<ms>` waits (honouring the abort signal), `explode` throws
 * an error carrying SQL-looking text, `lockheld` opens an embedded catalog's lock that this
 * process already holds (the real CatalogInUseError, code CATALOG_IN_USE), `leak` makes synthesize return `leakTableId` even if not
 * granted (to prove the API's second fence). With GRAFT_API_TEST_ENGINE=real the instrumented
 * engine wraps the real one (src/engine) instead of the double; assertions about what the
 * double chooses are then skipped (`double === false`), API invariants still run.
 */

interface EngineTable {
  id: string;
  name: string;
  uri: string;
  sourceRoot: string;
  columns: { id: string; name: string; sampleValues: string[] }[];
}

export class TestEngine implements ServedEngine {
  private cache?: Promise<EngineTable[]>;

  constructor(private readonly db: CatalogDatabase) {}

  invalidate(): void {
    this.cache = undefined;
  }

  private tables(allow?: TableFilter): Promise<EngineTable[]> {
    this.cache ??= this.db.prisma.lakeTable
      .findMany({
        include: { source: true, columns: { orderBy: { ordinal: 'asc' }, select: { id: true, name: true, sampleValues: true } } },
        orderBy: { name: 'asc' },
      })
      .then((rows) =>
        rows.map((t) => ({ id: t.id, name: t.name, uri: t.uri, sourceRoot: path.basename(t.source.rootPath), columns: t.columns })),
      );
    return this.cache.then((all) => (allow ? all.filter((t) => allow({ id: t.id, name: t.name, uri: t.uri, sourceRoot: t.sourceRoot })) : all));
  }

  async intentGraph(question: string, opts: { extractor?: 'offline' | 'llm'; allowTable?: TableFilter; signal?: AbortSignal }): Promise<IntentResult> {
    const started = Date.now();
    const q = question.toLowerCase();
    const matched = (await this.tables(opts.allowTable)).filter((t) => q.includes(t.name.toLowerCase()));
    const graph: IntentGraph =
      matched.length === 0
        ? { version: 1, trees: [{ entity: { id: 'e0', label: question.split(/\s+/)[0] || 'thing' }, attributes: [] }], edges: [] }
        : {
            version: 1,
            trees: matched.map((t, i) => ({
              entity: { id: `e${i}`, label: t.name, grounding: [{ tableId: t.id, kind: 'table-name' as const, score: 1 }] },
              attributes: t.columns
                .filter((c) => c.name.length > 2 && q.includes(c.name.toLowerCase()))
                .map((c, j) => ({
                  id: `a${i}_${j}`,
                  label: c.name,
                  grounding: [{ tableId: t.id, columnId: c.id, kind: 'column-name' as const, score: 0.9 }],
                })),
            })),
            edges: matched.slice(1).map((_, i) => ({ id: `r${i}`, from: `e${i}`, to: `e${i + 1}` })),
          };
    return { graph, source: opts.extractor === 'llm' ? 'offline-fallback' : 'offline', warnings: [], elapsedMs: Date.now() - started };
  }

  async synthesize(question: string, opts: AskOptions): Promise<SynthesisResult> {
    const started = Date.now();
    const intent: IntentResult = opts.intent
      ? { graph: opts.intent, source: 'given', warnings: [], elapsedMs: 0 }
      : await this.intentGraph(question, { allowTable: opts.allowTable, signal: opts.signal });
    const visible = new Map((await this.tables(opts.allowTable)).map((t) => [t.id, t]));
    const atoms = intentAtoms(intent.graph);
    const chosen: EngineTable[] = [];
    for (const a of atoms) {
      for (const g of a.grounding) {
        const t = visible.get(g.tableId);
        if (t && !chosen.includes(t) && chosen.length < (opts.budget ?? 10)) chosen.push(t);
      }
    }
    const ids = chosen.map((t) => t.id);
    const edges = ids.length > 1
      ? await this.db.prisma.joinEdge.findMany({
          where: { fromTableId: { in: ids }, toTableId: { in: ids } },
          include: { fromColumn: true, toColumn: true, fromTable: true, toTable: true },
          orderBy: { score: 'desc' },
        })
      : [];
    const supported = atoms.filter((a) => a.grounding.some((g) => ids.includes(g.tableId)));
    // One alternate, outside the SQL: what the strongest join from the chosen tables leads to.
    const outward = ids.length > 0 && ids.length < (opts.budget ?? 10) && (opts.minAlternateConfidence ?? 0.02) <= 0.5
      ? await this.db.prisma.joinEdge.findFirst({ where: { fromTableId: { in: ids }, toTableId: { notIn: ids } }, orderBy: [{ score: 'desc' }, { toTableId: 'asc' }] })
      : null;
    const alternate = outward ? visible.get(outward.toTableId) : undefined;
    const first = chosen[0];
    const previewRows = first && opts.preview
      ? Array.from({ length: Math.min(opts.preview, Math.max(0, ...first.columns.map((c) => c.sampleValues.length))) }, (_, i) =>
          Object.fromEntries(first.columns.map((c) => [c.name, c.sampleValues[i] ?? null])),
        )
      : [];
    return {
      question,
      intent,
      tables: [
        ...chosen.map((t) => ({ id: t.id, name: t.name, uri: t.uri, role: 'witness' as const, atoms: atoms.filter((a) => a.grounding.some((g) => g.tableId === t.id)).map((a) => a.id), gain: 1 / chosen.length })),
        ...(alternate ? [{ id: alternate.id, name: alternate.name, uri: alternate.uri, role: 'alternate' as const, atoms: [], gain: 0, confidence: 0.5 }] : []),
      ],
      plan: {
        joinSteps: edges.map((e) => ({
          left: { table: e.fromTable.name, column: e.fromColumn.name },
          right: { table: e.toTable.name, column: e.toColumn.name },
          score: e.score,
          containment: e.containmentFromTo,
        })),
        unionGroups: [],
        sql: chosen.length ? `SELECT * FROM ${chosen.map((t) => `"${t.name}"`).join(' CROSS JOIN ')}` : null,
        executable: chosen.length > 0,
        warnings: [],
      },
      score: atoms.length ? supported.length / atoms.length : 0,
      valueFunction: 'heuristic',
      unsupportedAtoms: atoms.filter((a) => !supported.includes(a)).map((a) => a.id),
      preview: opts.preview && first ? { columns: first.columns.map((c) => c.name), rows: previewRows } : undefined,
      elapsedMs: Date.now() - started,
      warnings: [],
    };
  }

  async explain(args: { question?: string; intent?: IntentGraph; tableIds: string[]; allowTable?: TableFilter; signal?: AbortSignal }): Promise<ScoreExplanation> {
    const graph = args.intent ?? (await this.intentGraph(args.question ?? '', { allowTable: args.allowTable, signal: args.signal })).graph;
    const visible = new Map((await this.tables(args.allowTable)).map((t) => [t.id, t]));
    const tables = args.tableIds.map((id) => visible.get(id)).filter((t): t is EngineTable => t !== undefined);
    const atoms = intentAtoms(graph).map((a) => {
      const by = a.grounding.map((g) => g.tableId).filter((id) => args.tableIds.includes(id));
      return { atomId: a.id, kind: a.kind, label: a.label, support: by.length ? 1 : 0, supportedBy: [...new Set(by)] };
    });
    const score = atoms.length ? atoms.filter((a) => a.support > 0).length / atoms.length : 0;
    const names = (t: EngineTable) => new Set(t.columns.map((c) => c.name));
    const redundancy = [];
    for (let i = 0; i < tables.length; i++) {
      for (let j = i + 1; j < tables.length; j++) {
        const a = names(tables[i]);
        const b = names(tables[j]);
        const inter = [...a].filter((x) => b.has(x)).length;
        redundancy.push({ tableA: tables[i].id, tableB: tables[j].id, rho: inter / (a.size + b.size - inter || 1) });
      }
    }
    return {
      tableIds: tables.map((t) => t.id),
      score,
      atoms,
      tables: tables.map((t) => {
        const own = atoms.filter((a) => a.supportedBy.includes(t.id)).length;
        return { tableId: t.id, name: t.name, marginalGain: atoms.length ? own / atoms.length : 0, leaveOneOutLoss: atoms.length ? own / atoms.length : 0 };
      }),
      redundancy,
      determinant: { atoms: atoms.length, logDetPrior: 0, logDetPosterior: -score },
      unsupportedAtoms: atoms.filter((a) => a.support === 0).map((a) => a.atomId),
      warnings: [],
    };
  }
}

async function magic(question: string, signal?: AbortSignal): Promise<void> {
  const sleep = /sleep:(\d+)/.exec(question);
  if (sleep) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, Number(sleep[1]));
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  }
  if (/\blockheld\b/.test(question)) {
    const dir = await mkdtemp(path.join(tmpdir(), 'graft-lockheld-'));
    const held = await acquireCatalogLock(dir);
    try {
      await acquireCatalogLock(dir);
    } finally {
      held.release();
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (/\bexplode\b/.test(question)) {
    throw new Error('PrismaClientKnownRequestError: relation "lake_table_secret" does not exist: SELECT * FROM lake_table_secret WHERE token_hash = $1');
  }
}

/** Records calls and invalidations and adds the magic words (see the top of this file). */
export class InstrumentedEngine implements ServedEngine {
  invalidations = 0;
  calls: { op: string; question?: string; filtered: boolean }[] = [];
  leakTableId?: string;

  constructor(
    readonly inner: ServedEngine,
    private readonly db: CatalogDatabase,
  ) {}

  invalidate(): void {
    this.invalidations++;
    this.inner.invalidate();
  }

  async intentGraph(question: string, opts: { extractor?: 'offline' | 'llm'; allowTable?: TableFilter; signal?: AbortSignal }): Promise<IntentResult> {
    this.calls.push({ op: 'intentGraph', question, filtered: opts.allowTable !== undefined });
    await magic(question, opts.signal);
    return this.inner.intentGraph(question, opts);
  }

  async synthesize(question: string, opts: AskOptions): Promise<SynthesisResult> {
    this.calls.push({ op: 'synthesize', question, filtered: opts.allowTable !== undefined });
    await magic(question, opts.signal);
    const r = await this.inner.synthesize(question, opts);
    if (/\bleak\b/.test(question) && this.leakTableId) {
      const t = await this.db.prisma.lakeTable.findUniqueOrThrow({ where: { id: this.leakTableId } });
      r.tables.push({ id: t.id, name: t.name, uri: t.uri, role: 'witness', atoms: [], gain: 0 });
    }
    return r;
  }

  async explain(args: { question?: string; intent?: IntentGraph; tableIds: string[]; allowTable?: TableFilter; signal?: AbortSignal }): Promise<ScoreExplanation> {
    this.calls.push({ op: 'explain', question: args.question, filtered: args.allowTable !== undefined });
    await magic(args.question ?? '', args.signal);
    return this.inner.explain(args);
  }
}

/** The engine the API suites run against: the double, or the real engine when GRAFT_API_TEST_ENGINE=real. */
export async function makeTestEngine(db: CatalogDatabase): Promise<{ engine: InstrumentedEngine; double: boolean }> {
  if (process.env.GRAFT_API_TEST_ENGINE === 'real') {
    const { createEngine } = await import('../../../src/engine/index.js');
    const { HashedNgramEmbedder } = await import('../../../src/embed/index.js');
    return { engine: new InstrumentedEngine(createEngine(db, new HashedNgramEmbedder()), db), double: false };
  }
  return { engine: new InstrumentedEngine(new TestEngine(db), db), double: true };
}
