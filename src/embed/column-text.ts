/**
 * The text an embedder sees for one column: its header, its table and up to ten sample values,
 * in a fixed layout that reads naturally for a language model and that the built-in embedder
 * parses back (`parseColumnEmbeddingText`) to weight header, table and values differently:
 *
 *   column: player_id; table: matches; values: 17, 23, 42
 */
export const MAX_SAMPLE_VALUES = 10;
/** Long values (free text, JSON) are cut; the start is enough to say what kind of value it is. */
export const MAX_SAMPLE_VALUE_CHARS = 48;

const COLUMN_TEXT = /^column: (.*?); table: (.*?)(?:; values: (.*))?$/s;

/** Names go on one line and may not contain the ';' that separates the parts. */
function cleanName(name: string): string {
  return name.replace(/[\s;]+/g, ' ').trim();
}

function cleanValue(value: string): string {
  const v = value.replace(/\s+/g, ' ').trim();
  return v.length > MAX_SAMPLE_VALUE_CHARS ? v.slice(0, MAX_SAMPLE_VALUE_CHARS) : v;
}

export function columnEmbeddingText(
  tableName: string,
  col: { name: string; sampleValues: string[] },
): string {
  const values = col.sampleValues
    .map(cleanValue)
    .filter((v) => v.length > 0)
    .slice(0, MAX_SAMPLE_VALUES);
  const head = `column: ${cleanName(col.name)}; table: ${cleanName(tableName)}`;
  return values.length > 0 ? `${head}; values: ${values.join(', ')}` : head;
}

export interface ParsedColumnText {
  column: string;
  table: string;
  /** The values part as one string; values may themselves contain ', ', so it is not split. */
  values: string;
}

/** Inverse of columnEmbeddingText; null for any other text (e.g. a question). */
export function parseColumnEmbeddingText(text: string): ParsedColumnText | null {
  const m = COLUMN_TEXT.exec(text);
  if (!m) return null;
  return { column: m[1], table: m[2], values: m[3] ?? '' };
}
