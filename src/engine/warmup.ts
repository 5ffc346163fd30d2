import { identifierTerms } from '../graph/index.js';
import type { LakeSnapshot, SnapshotTable } from '../search/index.js';

/**
 * Questions made from a catalog's own names, for warming an engine worker up (`EnginePool.warmUp`).
 * A fresh worker loads its modules and word lists before its first task, and V8 compiles the
 * engine's hot paths only while it runs them (src/engine README, "Warm-up": the pool alone
 * answered the demo questions 1.6 times faster one at a time and 3 times faster at 50 in flight
 * once warmed up). What the questions ask does not matter, only that they run the same stages as real ones
 * (recall, extraction, candidates, beam search, fusion), so they name tables, their columns and a
 * joined table, cycling through the catalog. `offset` is the position in that one sequence, so
 * lanes that take consecutive offsets never repeat one another.
 */
export function warmupQuestions(snapshot: LakeSnapshot, count: number, offset = 0): string[] {
  const tables = snapshot.tables;
  if (tables.length === 0 || count <= 0) return [];
  const out: string[] = [];
  for (let i = offset; i < offset + count; i++) {
    const table = tables[i % tables.length];
    const round = Math.floor(i / tables.length);
    const name = words(table.name);
    const attribute = columnWords(table, round);
    if (round % 3 === 0) {
      out.push(`What is the ${attribute} of each ${name}?`);
    } else if (round % 3 === 1) {
      out.push(`Which ${name} has the highest ${columnWords(table, round + 1)}?`);
    } else {
      const joined = snapshot.neighbours(table.id).find((n) => n.kind === 'join');
      const other = joined ? snapshot.tableById.get(joined.tableId) : undefined;
      out.push(other ? `Show the ${attribute} of ${name} with the ${columnWords(other, round)} of their ${words(other.name)}.` : `How many ${name} are there for each ${attribute}?`);
    }
  }
  return out;
}

function words(name: string): string {
  return identifierTerms(name).join(' ') || name;
}

/** The words of one of the table's columns, taking the next one each round. */
function columnWords(table: SnapshotTable, round: number): string {
  if (table.columns.length === 0) return 'name';
  return words(table.columns[round % table.columns.length].name);
}
