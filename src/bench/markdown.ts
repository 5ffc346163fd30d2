import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Replaces the text between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->` in a
 * markdown file (creating the file, or appending the section, when absent). Everything outside
 * the markers is left byte-for-byte as it was, so several benchmarks share one BENCHMARKS.md.
 */
export function replaceMarkedSection(file: string, name: string, body: string, title = '# Benchmarks\n'): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${body.trimEnd()}\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : title;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) {
    text = text.slice(0, i) + block + text.slice(j + end.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, text);
}

/** A GitHub markdown table. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
