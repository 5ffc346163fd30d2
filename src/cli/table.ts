/** Prints rows as a left-aligned text table, cells cut to keep lines readable. */
export function printTable(header: string[], rows: unknown[][], out = process.stdout, maxCell = 60): void {
  const cells = [header, ...rows.map((r) => r.map((c) => cut(String(c ?? ''), maxCell)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  for (const r of cells) out.write(`${r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()}\n`);
}

function cut(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
