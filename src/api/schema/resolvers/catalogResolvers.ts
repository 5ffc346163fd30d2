import 'reflect-metadata';
import path from 'node:path';
import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { BadInputError } from '../../../util/errors.js';
import { decodeColumnCursor, decodeTableCursor, encodeCursor } from '../../catalog/cursor.js';
import type { ColumnRow, JoinNeighbourRow, TableRow, UnionNeighbourRow } from '../../catalog/reader.js';
import type { RequestContext } from '../../context.js';
import {
  Column,
  ColumnAlignment,
  ColumnConnection,
  ColumnFilterInput,
  ColumnHit,
  JoinNeighbour,
  Table,
  TableConnection,
  TableFilterInput,
  UnionNeighbour,
} from '../types/catalog.js';

/** Validates a page size against the limits (BAD_USER_INPUT names the argument). */
export function pageSize(ctx: RequestContext, first: number | null | undefined, fallback?: number): number {
  const { maxFirst, defaultFirst } = ctx.services.config.limits;
  const n = first ?? fallback ?? defaultFirst;
  if (!Number.isInteger(n) || n < 0) throw new BadInputError('first must be a non-negative integer', { field: 'first' });
  if (n > maxFirst) throw new BadInputError(`first must be at most ${maxFirst}`, { field: 'first' });
  return n;
}

interface TableConnectionRoot {
  edges: { cursor: string; node: TableRow }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  count: () => Promise<number>;
}

interface ColumnConnectionRoot {
  edges: { cursor: string; node: ColumnRow }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  count: () => Promise<number>;
}

@Resolver()
export class CatalogQueryResolver {
  @Query(() => Table, { nullable: true, description: 'A table by id; null when unknown or not granted.' })
  async table(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<TableRow | null> {
    return ctx.loaders.tableById.load(id);
  }

  @Query(() => TableConnection, { description: 'Granted tables, a page at a time (ordered by name, then id).' })
  async tables(
    @Arg('filter', () => TableFilterInput, { nullable: true }) filter: TableFilterInput | null,
    @Arg('first', () => Int, { nullable: true, description: 'Page size (default 50, at most 500).' }) first: number | null,
    @Arg('after', () => String, { nullable: true, description: 'endCursor of the previous page.' }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<TableConnectionRoot> {
    const limit = pageSize(ctx, first);
    const key = after ? decodeTableCursor(after) : undefined;
    const f = filter ?? undefined;
    const { rows, hasNext } = limit === 0 ? { rows: [], hasNext: false } : await ctx.reader.tablePage(f, limit, key);
    ctx.loaders.primeTables(rows);
    const edges = rows.map((t) => ({ cursor: encodeCursor('t', [t.name, t.id]), node: t }));
    return {
      edges,
      pageInfo: { hasNextPage: hasNext, endCursor: edges.at(-1)?.cursor ?? null },
      count: () => ctx.reader.tableCount(f),
    };
  }

  @Query(() => ColumnConnection, { description: 'Granted columns, of one table or all, a page at a time.' })
  async columns(
    @Arg('tableId', () => ID, { nullable: true }) tableId: string | null,
    @Arg('filter', () => ColumnFilterInput, { nullable: true }) filter: ColumnFilterInput | null,
    @Arg('first', () => Int, { nullable: true, description: 'Page size (default 50, at most 500).' }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<ColumnConnectionRoot> {
    const limit = pageSize(ctx, first);
    const key = after ? decodeColumnCursor(after) : undefined;
    const f = filter ?? undefined;
    const tid = tableId ?? undefined;
    const { rows, hasNext } = limit === 0 ? { rows: [], hasNext: false } : await ctx.reader.columnPage(tid, f, limit, key);
    ctx.loaders.primeColumns(rows);
    const edges = rows.map((c) => ({ cursor: encodeCursor('c', [c.tableName, c.tableId, c.ordinal]), node: c }));
    return {
      edges,
      pageInfo: { hasNextPage: hasNext, endCursor: edges.at(-1)?.cursor ?? null },
      count: () => ctx.reader.columnCount(tid, f),
    };
  }

  @Query(() => [ColumnHit], { description: 'Columns matching a text: vector similarity (pgvector) merged with name matches.' })
  async searchColumns(
    @Arg('text', () => String) text: string,
    @Arg('first', () => Int, { nullable: true, defaultValue: 10 }) first: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<{ column: ColumnRow; score: number; vectorScore: number | null; lexicalScore: number | null; matchedBy: string[] }[]> {
    const n = pageSize(ctx, first, 10);
    if (!text.trim()) throw new BadInputError('text must not be empty', { field: 'text' });
    if (text.length > ctx.services.config.limits.maxQuestionLength) {
      throw new BadInputError(`text is longer than ${ctx.services.config.limits.maxQuestionLength} characters`, { field: 'text' });
    }
    if (n === 0) return [];
    const hits = await ctx.services.searcher.search(text, n, ctx.scope);
    const columns = await ctx.loaders.columnById.loadMany(hits.map((h) => h.columnId));
    const out = [];
    for (let i = 0; i < hits.length; i++) {
      const c = columns[i];
      if (c && !(c instanceof Error)) out.push({ ...hits[i], column: c });
    }
    return out;
  }
}

@Resolver(() => TableConnection)
export class TableConnectionResolver {
  @FieldResolver(() => Int)
  totalCount(@Root() root: TableConnectionRoot): Promise<number> {
    return root.count();
  }
}

@Resolver(() => ColumnConnection)
export class ColumnConnectionResolver {
  @FieldResolver(() => Int)
  totalCount(@Root() root: ColumnConnectionRoot): Promise<number> {
    return root.count();
  }
}

@Resolver(() => Table)
export class TableResolver {
  @FieldResolver(() => String)
  source(@Root() t: TableRow): string {
    return path.basename(t.sourceRoot);
  }

  @FieldResolver(() => String)
  ingestedAt(@Root() t: TableRow): string {
    return t.ingestedAt.toISOString();
  }

  @FieldResolver(() => [Column], { description: 'Columns in ordinal order.' })
  columns(@Root() t: TableRow, @Ctx() ctx: RequestContext): Promise<ColumnRow[]> {
    return ctx.loaders.columnsByTableId.load(t.id);
  }

  @FieldResolver(() => [JoinNeighbour], { description: 'Granted tables joinable with this one, best first.' })
  joinable(@Root() t: TableRow, @Ctx() ctx: RequestContext): Promise<JoinNeighbourRow[]> {
    return ctx.loaders.joinNeighboursByTableId.load(t.id);
  }

  @FieldResolver(() => [UnionNeighbour], { description: 'Granted tables unionable with this one, best first.' })
  unionable(@Root() t: TableRow, @Ctx() ctx: RequestContext): Promise<UnionNeighbourRow[]> {
    return ctx.loaders.unionNeighboursByTableId.load(t.id);
  }
}

async function mustTable(ctx: RequestContext, id: string): Promise<TableRow> {
  const t = await ctx.loaders.tableById.load(id);
  // Unreachable unless the catalog changed mid-request: every id here came from a granted row.
  if (!t) throw new Error(`table ${id} vanished while the request ran`);
  return t;
}

@Resolver(() => Column)
export class ColumnResolver {
  @FieldResolver(() => Table)
  table(@Root() c: ColumnRow, @Ctx() ctx: RequestContext): Promise<TableRow> {
    return mustTable(ctx, c.tableId);
  }
}

@Resolver(() => JoinNeighbour)
export class JoinNeighbourResolver {
  @FieldResolver(() => Table)
  table(@Root() n: JoinNeighbourRow, @Ctx() ctx: RequestContext): Promise<TableRow> {
    return mustTable(ctx, n.tableId);
  }
}

@Resolver(() => UnionNeighbour)
export class UnionNeighbourResolver {
  @FieldResolver(() => Table)
  table(@Root() n: UnionNeighbourRow, @Ctx() ctx: RequestContext): Promise<TableRow> {
    return mustTable(ctx, n.tableId);
  }

  @FieldResolver(() => Int)
  alignedColumns(@Root() n: UnionNeighbourRow): number {
    return n.alignment.length;
  }
}

@Resolver(() => ColumnAlignment)
export class ColumnAlignmentResolver {
  @FieldResolver(() => Column, { nullable: true })
  localColumn(@Root() a: { localColumnId: string }, @Ctx() ctx: RequestContext): Promise<ColumnRow | null> {
    return ctx.loaders.columnById.load(a.localColumnId);
  }

  @FieldResolver(() => Column, { nullable: true })
  remoteColumn(@Root() a: { remoteColumnId: string }, @Ctx() ctx: RequestContext): Promise<ColumnRow | null> {
    return ctx.loaders.columnById.load(a.remoteColumnId);
  }
}
