import { BadInputError } from '../util/errors.js';
import { NAME_INDEX_SPLIT, type Lemmatiser, ruleLemmatiser, splitIdentifier } from '../text/index.js';
import {
  type AttributeNode,
  type CrossTreeEdge,
  INTENT_SCHEMA_VERSION,
  type IntentGraph,
  type IntentTree,
  type ValueLiteral,
  parseIntentGraph,
} from './schema.js';

export interface DecompositionOptions {
  /**
   * Table names of the question's database. When given, a bare item ("countries") is an entity
   * exactly when it names one of them; otherwise a bare item with a plural head is taken as one.
   */
  tableNames?: Iterable<string>;
  /** Default: the suffix-rule lemmatiser (no model load). */
  lemmatiser?: Lemmatiser;
}

/** Bare items that name an operation, not a schema element. */
const OPERATION_WORDS = new Set([
  'average', 'avg', 'mean', 'maximum', 'max', 'minimum', 'min', 'total', 'sum', 'count', 'number of',
  'order', 'ordered', 'sort', 'sorted', 'ascending', 'descending', 'most', 'least', 'highest', 'lowest',
  'distinct', 'different', 'all',
]);
const OPERATION_PREFIX = /^(average|avg|mean|maximum|max|minimum|min|total|sum of|count of|number of|highest|lowest|largest|smallest)\s+/i;

interface EntityDraft {
  key: string;
  label: string;
  /** `groups`: one value constraint per item; an item listing several literals is one `in` group. */
  attributes: { key: string; label: string; groups: ValueLiteral[][] }[];
}

/**
 * Intent graph from a question decomposition (the Spider `decomp.json` format): a list of
 * "table:column" strings, with three variants seen in the data — a bare "table" or "column"
 * term, "table:column:value" (student:pet:dog), and "key: 'v1', 'v2'" value lists. One tree per
 * table, an attribute per column, value leaves for the values, edges chaining the tables in
 * order of first mention. Throws BadInputError when no item names anything.
 */
export function intentFromDecomposition(items: readonly string[], opts: DecompositionOptions = {}): IntentGraph {
  const lemmatiser = opts.lemmatiser ?? ruleLemmatiser();
  const norm = (text: string): string =>
    splitIdentifier(text, NAME_INDEX_SPLIT)
      .map((w) => lemmatiser.lemma(w))
      .join(' ');
  const knownTables = opts.tableNames ? new Set([...opts.tableNames].map(norm)) : undefined;
  // Tables the decomposition itself qualifies columns with.
  const qualified = new Set<string>();
  for (const item of items) {
    const colon = item.indexOf(':');
    if (colon > 0 && !quotedLiterals(item.slice(colon + 1).trim())) qualified.add(norm(item.slice(0, colon)));
  }

  const entities: EntityDraft[] = [];
  const pending: EntityDraft['attributes'] = [];
  let current: EntityDraft | undefined;

  const entityFor = (label: string): EntityDraft => {
    const key = norm(label);
    let e = entities.find((x) => x.key === key);
    if (!e) {
      e = { key, label: label.trim(), attributes: [] };
      entities.push(e);
      // Columns named before any table belong to the first table named.
      if (entities.length === 1) e.attributes.push(...pending.splice(0));
    }
    current = e;
    return e;
  };
  const addAttribute = (label: string, literals: ValueLiteral[] = []): void => {
    const key = norm(label);
    const target = current ? current.attributes : pending;
    let existing = target.find((a) => a.key === key);
    if (!existing) {
      existing = { key, label: label.trim(), groups: [] };
      target.push(existing);
    }
    if (literals.length > 0) existing.groups.push(literals);
  };
  const isTableTerm = (term: string): boolean => {
    const key = norm(term);
    if (knownTables) return knownTables.has(key);
    if (qualified.has(key)) return true;
    const words = splitIdentifier(term, NAME_INDEX_SPLIT);
    const head = words[words.length - 1] ?? '';
    return head.length > 3 && lemmatiser.lemma(head) !== head;
  };

  for (const raw of items) {
    const item = raw.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    if (colon < 0) {
      const term = item.replace(OPERATION_PREFIX, '');
      if (OPERATION_WORDS.has(term.toLowerCase())) continue;
      if (isTableTerm(term)) entityFor(term);
      else addAttribute(term);
      continue;
    }
    const head = item.slice(0, colon).trim();
    const rest = item.slice(colon + 1).trim();
    const literals = quotedLiterals(rest);
    if (literals) {
      // "keywords: 'Brazil', 'Ireland'": values of an attribute of the current table.
      addAttribute(head, literals);
      continue;
    }
    const parts = rest.split(':').map((p) => p.trim());
    entityFor(head);
    if (parts[0]) addAttribute(parts[0], parts.slice(1).filter((p) => p !== '').slice(0, 1));
  }

  if (entities.length === 0) {
    if (pending.length === 0) throw new BadInputError('decomposition names no table or column', { items });
    // Only columns: the first one stands for the thing asked about.
    const [first, ...rest] = pending.splice(0);
    entities.push({ key: first.key, label: first.label, attributes: rest });
  }
  return buildGraph(entities);
}

/** "'Brazil', 'Ireland'" -> ['Brazil', 'Ireland']; anything else -> undefined. */
function quotedLiterals(text: string): string[] | undefined {
  if (!/^['"]/.test(text)) return undefined;
  const out: string[] = [];
  const re = /\s*(['"])(.*?)\1\s*(,|$)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(text)) !== null && m[0] !== '') {
    out.push(m[2]);
    consumed = re.lastIndex;
    if (re.lastIndex >= text.length) break;
  }
  return out.length > 0 && consumed >= text.length ? out : undefined;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '') || 'x';
}

function buildGraph(entities: EntityDraft[]): IntentGraph {
  const used = new Set<string>();
  const unique = (base: string): string => {
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}~${n}`;
    used.add(id);
    return id;
  };
  const trees: IntentTree[] = entities.map((e) => {
    const id = unique(slug(e.label));
    const attributes: AttributeNode[] = e.attributes.flatMap((a) => {
      const groups = a.groups.length > 0 ? a.groups : [[]];
      // One node per constraint: "has a dog" and "has a cat" are two conditions, not one list.
      return groups.map((literals) => {
        const attrId = unique(`${id}.${slug(a.label)}`);
        const node: AttributeNode = { id: attrId, label: a.label };
        if (literals.length === 1) node.value = { id: unique(`${attrId}.value`), operator: '=', literal: literals[0] };
        if (literals.length > 1) {
          node.value = { id: unique(`${attrId}.value`), operator: 'in', literal: literals as (string | number)[] };
        }
        return node;
      });
    });
    return { entity: { id, label: e.label }, attributes };
  });
  const edges: CrossTreeEdge[] = [];
  for (let i = 1; i < trees.length; i++) {
    const from = trees[i - 1].entity.id;
    const to = trees[i].entity.id;
    edges.push({ id: unique(`${from}--${to}`), from, to });
  }
  return parseIntentGraph({ version: INTENT_SCHEMA_VERSION, trees, edges });
}
