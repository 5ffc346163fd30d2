import { NAME_INDEX_SPLIT, type Lemmatiser, defaultLemmatiser, splitIdentifier } from '../text/index.js';
import { MAX_NAME_WORDS, NameIndex, type NameHit, cmp } from './name-index.js';
import { detectOperator } from './operators.js';
import {
  type AttributeNode,
  type CrossTreeEdge,
  type Grounding,
  type GroundingKind,
  INTENT_SCHEMA_VERSION,
  type IntentGraph,
  type IntentTree,
  type ValueLiteral,
  type ValueOperator,
  parseIntentGraph,
} from './schema.js';
import { SEGMENT_BREAK_WORDS, STOP_WORDS, type QuestionToken, bagKey, tokeniseQuestion } from './text.js';
import type { CatalogVocabulary, ValueLocation, VocabularyColumn } from './vocabulary.js';
import { type SynonymSource, defaultSynonyms } from './wordnet.js';

export interface OfflineExtractorOptions {
  /** Default: the shared wink-nlp lemmatiser (rules if wink cannot load). */
  lemmatiser?: Lemmatiser;
  /** Default: WordNet noun synonyms; `false` turns synonym matching off. */
  synonyms?: SynonymSource | false;
  /** Catalog matches kept per atom when a name is ambiguous. Default 5. */
  maxGroundings?: number;
}

/** A question span the extractor used, with the role it gave it and its catalog matches. */
export interface IntentMatch {
  text: string;
  /** Token range [start, end) in the tokenised question. */
  tokenStart: number;
  tokenEnd: number;
  role: 'entity' | 'attribute' | 'value';
  grounding: Grounding[];
}

export interface OfflineExtraction {
  graph: IntentGraph;
  matches: IntentMatch[];
  warnings: string[];
}

const SYNONYM_FACTOR = 0.7;
const VALUE_SCORE = 0.9;
const LOWERCASE_VALUE_SCORE = 0.75;
const IMPLIED_FACTOR = 0.8;
/** How far (in tokens) a number looks for the attribute it constrains ("GPA above 3.5"). */
const ADJACENT_BEFORE = 4;
const ADJACENT_AFTER = 2;
const NEAREST_NOUN_WINDOW = 5;

const AGGREGATE_HEADS = new Set(['number', 'count', 'total', 'amount', 'sum', 'average']);
const NUMERIC_TYPE = /int|integer|bigint|smallint|tinyint|hugeint|long|short|double|float|real|decimal|numeric|number/i;
const DATE_TYPE = /date|time|timestamp/i;
const ID_NAME = /(^|[\s_])(id|code|key|pk|fk)$/i;

interface Candidate {
  kind: 'name' | 'value' | 'synonym';
  /** Token indices claimed (content tokens for names, every token for values). */
  tokens: number[];
  first: number;
  last: number;
  /** Content words covered: longer spans win. */
  weight: number;
  hits: NameHit[];
  locations: ValueLocation[];
  score: number;
}

interface ColumnHit {
  tableId: string;
  columnId: string;
  score: number;
  kind: GroundingKind;
}

interface EntityMention {
  label: string;
  position: number;
  /** Candidate tables with their best match score and kind. */
  tables: Map<string, { score: number; kind: GroundingKind }>;
  ranked: Grounding[];
  spans: Candidate[];
}

interface AttributeMention {
  label: string;
  position: number;
  columns: ColumnHit[];
  grounding: Grounding[];
  entity?: EntityMention;
  values: ValueMention[];
  span?: Candidate;
}

interface ValueMention {
  position: number;
  end: number;
  text: string;
  literal: ValueLiteral;
  operator: ValueOperator;
  isNumber: boolean;
  isYear: boolean;
  locations: ValueLocation[];
  span?: Candidate;
  attribute?: AttributeMention;
}

/** Pool item for the table cover: an attribute or value no named entity could take. */
interface CoverItem {
  position: number;
  columns: ColumnHit[];
  attribute?: AttributeMention;
  value?: ValueMention;
}

/**
 * Deterministic, offline question -> intent graph. Indexes are built once per vocabulary in the
 * constructor; `extract` does map look-ups over the question's n-grams and never throws.
 */
export class OfflineExtractor {
  private readonly lemmatiser: Lemmatiser;
  private readonly synonyms: SynonymSource | undefined;
  private readonly maxGroundings: number;
  private readonly names: NameIndex;
  private readonly isNoun?: (word: string) => boolean;

  constructor(
    readonly vocabulary: CatalogVocabulary,
    opts: OfflineExtractorOptions = {},
  ) {
    this.lemmatiser = opts.lemmatiser ?? defaultLemmatiser();
    this.synonyms = opts.synonyms === false ? undefined : (opts.synonyms ?? defaultSynonyms());
    this.maxGroundings = Math.max(1, opts.maxGroundings ?? 5);
    this.names = new NameIndex(vocabulary, this.lemmatiser);
    const source = this.synonyms;
    if (source?.isNoun) this.isNoun = (w) => source.isNoun!(w);
  }

  extract(question: string): OfflineExtraction {
    try {
      return this.run(question);
    } catch (err) {
      // Never throw on a question: a bug here must not take down retrieval.
      return {
        graph: fallbackGraph(mainNounPhrase(tokeniseQuestion(String(question ?? '')), this.lemmatiser)),
        matches: [],
        warnings: [`offline intent extraction failed (${(err as Error).message}); using a single entity`],
      };
    }
  }

  private run(question: string): OfflineExtraction {
    const warnings: string[] = [];
    const tokens = tokeniseQuestion(question);
    const lemmas = tokens.map((t) => (t.kind === 'word' ? this.lemmatiser.lemma(t.lower) : t.lower));
    const isContent = tokens.map(
      (t, i) => t.kind === 'word' && !STOP_WORDS.has(t.lower) && !STOP_WORDS.has(lemmas[i]) && !SEGMENT_BREAK_WORDS.has(t.lower),
    );

    // 1. Candidate spans: catalog names over content-word windows, values over raw windows.
    const claimed = new Set<number>();
    const selected = selectGreedy(
      [...this.nameCandidates(tokens, lemmas, isContent), ...this.valueCandidates(tokens, isContent)],
      claimed,
    );
    if (this.synonyms) selected.push(...selectGreedy(this.synonymCandidates(tokens, lemmas, isContent, claimed), claimed));
    selected.sort((a, b) => a.first - b.first);

    // 2. Values: quoted strings, numbers, and value-index hits.
    const values = this.collectValues(tokens, selected);

    // 3. Entities and attributes from the name spans.
    const nameSpans = selected.filter((c) => c.kind !== 'value');
    const spanLabel = (c: Candidate): string => c.tokens.map((i) => lemmas[i]).join(' ');
    const sureEntityTables = new Set<string>();
    for (const c of nameSpans) {
      if (c.hits.length > 0 && c.hits.every((h) => h.columnId === undefined)) {
        for (const h of c.hits) sureEntityTables.add(h.tableId);
      }
    }
    const entities: EntityMention[] = [];
    const attributes: AttributeMention[] = [];
    for (const c of nameSpans) {
      const tableHits = c.hits.filter((h) => h.columnId === undefined);
      const columnHits = c.hits.filter((h) => h.columnId !== undefined);
      const isEntity =
        tableHits.length > 0 && (columnHits.length === 0 || !columnHits.some((h) => sureEntityTables.has(h.tableId)));
      const kind: GroundingKind = c.kind === 'synonym' ? 'synonym' : isEntity ? 'table-name' : 'column-name';
      if (isEntity) {
        const tables = new Map<string, { score: number; kind: GroundingKind }>();
        for (const h of tableHits) tables.set(h.tableId, { score: round(h.score * c.score), kind });
        entities.push({ label: spanLabel(c), position: c.first, tables, ranked: [], spans: [c] });
      } else {
        attributes.push({
          label: spanLabel(c),
          position: c.first,
          columns: columnHits.map((h) => ({ tableId: h.tableId, columnId: h.columnId!, score: round(h.score * c.score), kind })),
          grounding: [],
          values: [],
          span: c,
        });
      }
    }
    this.rankEntities(entities, attributes, values);
    const merged = mergeEntities(entities);

    // 4. Attach attributes to the named entity that holds their column, nearest first.
    const pool: CoverItem[] = [];
    for (const a of attributes) {
      const host = this.hostFor(a.columns, merged, a.position);
      if (host) {
        a.entity = host.entity;
        a.grounding = host.grounding;
      } else if (merged.length > 0 && distinctTables(a.columns) > this.maxGroundings) {
        // A generic name ("number") found in many tables but none the question names.
        a.entity = nearest(merged, a.position);
        a.grounding = topColumns(a.columns, this.maxGroundings);
        warnings.push(
          `attribute '${a.label}' matches columns in ${distinctTables(a.columns)} tables, none of them a named entity; kept top ${this.maxGroundings}`,
        );
      } else {
        pool.push({ position: a.position, columns: a.columns, attribute: a });
      }
    }

    // 5. Values: find the attribute each one constrains.
    const loose: ValueMention[] = [];
    for (const v of values) {
      if (this.attachValue(v, attributes, merged, pool)) continue;
      loose.push(v);
    }

    // 6. Attributes and values no named entity holds: cover them with the fewest tables.
    const implied = this.coverPool(pool, attributes);
    const allEntities = [...merged, ...implied].sort((a, b) => a.position - b.position);

    // 7. Loose values: a typed column of the nearest entity, else an attribute named by a noun.
    for (const v of loose) this.placeLooseValue(v, tokens, lemmas, isContent, selected, allEntities, attributes, warnings);

    // 8. Nothing grounded at all: one entity named by the question's main noun phrase.
    if (allEntities.length === 0) {
      const label = mainNounPhrase(tokens, this.lemmatiser, this.isNoun);
      const fallback: EntityMention = { label, position: 0, tables: new Map(), ranked: [], spans: [] };
      allEntities.push(fallback);
      for (const a of attributes) a.entity ??= fallback;
      warnings.push(
        tokens.length === 0
          ? 'empty question: no entity to extract'
          : `no catalog table matched the question; using its main noun phrase '${label}' as the only entity`,
      );
    }
    for (const a of attributes) a.entity ??= nearest(allEntities, a.position);

    for (const e of allEntities) {
      if (e.ranked.length > 1 && e.ranked[0].score === e.ranked[1].score) {
        const candidates = Math.max(e.tables.size, e.ranked.length);
        warnings.push(`'${e.label}' is ambiguous: ${candidates} tables match; kept the top ${e.ranked.length} as grounding`);
      }
    }

    const graph = buildGraph(allEntities, attributes);
    return { graph, matches: this.describeMatches(question, tokens, allEntities, attributes, values), warnings };
  }

  // ---- candidates -------------------------------------------------------------------------

  private nameCandidates(tokens: QuestionToken[], lemmas: string[], isContent: boolean[]): Candidate[] {
    const out: Candidate[] = [];
    for (const segment of contentSegments(tokens, isContent)) {
      for (let n = Math.min(MAX_NAME_WORDS, segment.length); n >= 1; n--) {
        for (let i = 0; i + n <= segment.length; i++) {
          const idx = segment.slice(i, i + n);
          const hits = this.names.lookup(bagKey(idx.map((k) => lemmas[k])));
          if (!hits) continue;
          // "number of concerts", "count of pets" ask for an aggregate over the noun that follows,
          // not for a column called number: alone, the head word is no name (a longer span that
          // takes the noun too, a column number_of_employees, still is).
          if (n === 1 && AGGREGATE_HEADS.has(lemmas[idx[0]]) && tokens[idx[0] + 1]?.lower === 'of') continue;
          // A name read across stop words ("country of origin") only when its words do not
          // each name something themselves: "players of club" is players and club, not the
          // player_club map table.
          if (idx[n - 1] - idx[0] !== n - 1 && idx.every((k) => this.names.lookup(lemmas[k]))) continue;
          out.push({ kind: 'name', tokens: idx, first: idx[0], last: idx[n - 1], weight: n, hits, locations: [], score: 1 });
        }
      }
    }
    return out;
  }

  private valueCandidates(tokens: QuestionToken[], isContent: boolean[]): Candidate[] {
    const out: Candidate[] = [];
    for (let i = 0; i < tokens.length; i++) {
      for (let n = 1; n <= MAX_NAME_WORDS && i + n <= tokens.length; n++) {
        const run = tokens.slice(i, i + n);
        if (run.some((t) => t.kind !== 'word' && t.kind !== 'number')) break;
        const content = run.filter((t) => isContent[t.index]).length;
        if (content === 0) continue;
        if (n === 1 && run[0].kind === 'number') continue; // numbers are values anyway
        const locations = this.vocabulary.lookupValue(run.map((t) => t.lower).join(' '));
        if (locations.length === 0) continue;
        const informative = run.some((t) => /[\p{Lu}\p{N}]/u.test(t.text)) || content > 1;
        out.push({
          kind: 'value',
          tokens: run.map((t) => t.index),
          first: i,
          last: i + n - 1,
          weight: content,
          hits: [],
          locations,
          score: informative ? VALUE_SCORE : LOWERCASE_VALUE_SCORE,
        });
      }
    }
    return out;
  }

  private synonymCandidates(tokens: QuestionToken[], lemmas: string[], isContent: boolean[], claimed: Set<number>): Candidate[] {
    const out: Candidate[] = [];
    const synonyms = this.synonyms!;
    for (const segment of contentSegments(tokens, isContent)) {
      for (let n = Math.min(2, segment.length); n >= 1; n--) {
        for (let i = 0; i + n <= segment.length; i++) {
          const idx = segment.slice(i, i + n);
          if (idx.some((k) => claimed.has(k)) || idx[n - 1] - idx[0] !== n - 1) continue;
          // WordNet files nouns by base form; try the lemma, then the surface words.
          const phrase = idx.map((k) => lemmas[k]).join(' ');
          const surface = idx.map((k) => tokens[k].lower).join(' ');
          let syns = synonyms.synonyms(phrase);
          if (syns.length === 0 && surface !== phrase) syns = synonyms.synonyms(surface);
          const hits = new Map<string, NameHit>();
          for (const s of syns) {
            const found = this.names.lookup(bagKey(this.names.nameWords(s)));
            for (const h of found ?? []) {
              const key = `${h.tableId}\u0000${h.columnId ?? ''}`;
              if (!hits.has(key)) hits.set(key, h);
            }
          }
          if (hits.size === 0) continue;
          out.push({
            kind: 'synonym',
            tokens: idx,
            first: idx[0],
            last: idx[n - 1],
            weight: n,
            hits: [...hits.values()],
            locations: [],
            score: SYNONYM_FACTOR,
          });
        }
      }
    }
    return out;
  }

  // ---- values -----------------------------------------------------------------------------

  private collectValues(tokens: QuestionToken[], selected: Candidate[]): ValueMention[] {
    const out: ValueMention[] = [];
    const skip = new Set<number>();
    const valueSpanAt = new Map<number, Candidate>();
    for (const c of selected) if (c.kind === 'value') valueSpanAt.set(c.first, c);
    for (let i = 0; i < tokens.length; i++) {
      if (skip.has(i)) continue;
      const t = tokens[i];
      const span = valueSpanAt.get(i);
      if (t.kind !== 'quoted' && t.kind !== 'number' && !span) continue;
      if (t.kind === 'number' && tokens[i - 1]?.lower === 'top') continue; // "top 5" is a limit
      const end = span ? span.last : i;
      const op = detectOperator(tokens, i);
      const isNumber = t.kind === 'number' && !span;
      const text = span ? tokens.slice(span.first, span.last + 1).map((k) => k.text).join(' ') : t.text;
      const scalar = (tok: QuestionToken, s: string): string | number => (tok.kind === 'number' ? Number(tok.lower) : s);
      let literal: ValueLiteral = isNumber ? Number(t.lower) : text;
      let last = end;
      if (op.operator === 'between' && op.upperIndex !== undefined && !span) {
        const upper = tokens[op.upperIndex];
        literal = [scalar(t, text), scalar(upper, upper.text)];
        skip.add(op.upperIndex);
        last = op.upperIndex;
      } else if (op.operator === 'like') {
        literal = op.pattern === 'prefix' ? `${text}%` : op.pattern === 'suffix' ? `%${text}` : `%${text}%`;
      }
      const isYear = isNumber && /^\d{4}$/.test(t.lower) && Number(t.lower) >= 1000 && Number(t.lower) <= 2100;
      const locations = span ? span.locations : this.vocabulary.lookupValue(t.kind === 'number' ? t.lower : text);
      out.push({
        position: i,
        end: last,
        text,
        literal,
        operator: op.operator === 'between' && !Array.isArray(literal) ? '=' : op.operator,
        isNumber,
        isYear,
        locations,
        span,
      });
      for (let k = i; k <= end; k++) skip.add(k);
    }
    return out;
  }

  /** Returns true when the value found its attribute (or joined the cover pool). */
  private attachValue(v: ValueMention, attributes: AttributeMention[], entities: EntityMention[], pool: CoverItem[]): boolean {
    if (v.isNumber) {
      const adjacent = nearestAttribute(attributes, v, (a) => {
        const d = v.position - a.position;
        return a.values.length === 0 && ((d > 0 && d <= ADJACENT_BEFORE) || (d < 0 && -d <= ADJACENT_AFTER));
      });
      if (adjacent) return bind(v, adjacent);
    }
    if (v.locations.length > 0) {
      const inLocations = (g: { tableId: string; columnId?: string }): boolean =>
        v.locations.some((l) => l.tableId === g.tableId && l.columnId === g.columnId);
      const holder = nearestAttribute(attributes, v, (a) => a.values.length === 0 && a.grounding.some(inLocations));
      if (holder) return bind(v, holder);
      // A column of a named entity holds the value: it becomes an attribute of that entity.
      let best: { entity: EntityMention; columns: ColumnHit[] } | undefined;
      let bestDistance = Infinity;
      for (const e of entities) {
        const ranked = new Set(e.ranked.map((g) => g.tableId));
        const columns = v.locations.filter((l) => ranked.has(l.tableId));
        const d = Math.abs(e.position - v.position);
        if (columns.length > 0 && d < bestDistance) {
          bestDistance = d;
          best = { entity: e, columns: columns.map((l) => ({ ...l, score: v.span?.score ?? VALUE_SCORE, kind: 'value' })) };
        }
      }
      if (best) {
        const rank = new Map(best.entity.ranked.map((g, i) => [g.tableId, i]));
        best.columns.sort((a, b) => rank.get(a.tableId)! - rank.get(b.tableId)! || cmp(a.columnId, b.columnId));
        const attr = this.attributeForColumns(best.columns, v.position, best.entity);
        attributes.push(attr);
        return bind(v, attr);
      }
      const columns: ColumnHit[] = v.locations.map((l) => ({ ...l, score: v.span?.score ?? VALUE_SCORE, kind: 'value' }));
      pool.push({ position: v.position, columns, value: v });
      return true;
    }
    if (!v.isNumber) {
      // A quoted string with no index hit: the attribute mentioned right around it.
      const near = nearestAttribute(
        attributes,
        v,
        (a) => a.values.length === 0 && Math.abs(a.position - v.position) <= NEAREST_NOUN_WINDOW + 1,
      );
      if (near) return bind(v, near);
    }
    return false;
  }

  private placeLooseValue(
    v: ValueMention,
    tokens: QuestionToken[],
    lemmas: string[],
    isContent: boolean[],
    selected: Candidate[],
    entities: EntityMention[],
    attributes: AttributeMention[],
    warnings: string[],
  ): void {
    const entity = entities.length > 0 ? nearest(entities, v.position) : undefined;
    // The nearest content word no span took ("rank of 5", "released in 1970").
    const used = new Set<number>();
    for (const c of selected) for (const k of c.tokens) used.add(k);
    let free: number | undefined;
    for (let d = 1; d <= NEAREST_NOUN_WINDOW && free === undefined; d++) {
      for (const k of [v.position - d, v.end + d]) {
        if (k >= 0 && k < tokens.length && isContent[k] && !used.has(k)) {
          free = k;
          break;
        }
      }
    }
    const freeIsNoun = free !== undefined && isNounLike(tokens[free], lemmas[free], this.isNoun);
    if (v.isNumber && entity) {
      // A column of the entity named by that word (release -> release_year), else, unless the
      // word is a noun naming something the table lacks, a year-like / numeric column.
      const named = free !== undefined ? this.columnWithWord(entity, lemmas[free]) : undefined;
      const column = named ?? (freeIsNoun ? undefined : this.typedColumn(entity, v.isYear));
      if (column) {
        const attr = this.attributeForColumns(column, v.position, entity);
        attributes.push(attr);
        bind(v, attr);
        return;
      }
    }
    const label = free !== undefined ? lemmas[free] : v.isYear ? 'year' : 'value';
    const attr: AttributeMention = { label, position: free ?? v.position, columns: [], grounding: [], entity, values: [] };
    attributes.push(attr);
    bind(v, attr);
    warnings.push(`value '${v.text}' matched no column; attached to attribute '${label}'`);
  }

  /** A column of the entity's best tables whose name contains the word. */
  private columnWithWord(entity: EntityMention, word: string): ColumnHit[] | undefined {
    for (const g of entity.ranked) {
      const indexed = this.names.tables.get(g.tableId);
      for (const c of indexed?.columns.values() ?? []) {
        if (this.names.nameWords(c.name).includes(word)) {
          return [{ tableId: g.tableId, columnId: c.id, score: 0.6, kind: 'column-name' }];
        }
      }
    }
    return undefined;
  }

  /** A year-like or numeric (non-id) column of the entity's best table. */
  private typedColumn(entity: EntityMention, year: boolean): ColumnHit[] | undefined {
    for (const g of entity.ranked) {
      const indexed = this.names.tables.get(g.tableId);
      if (!indexed) continue;
      const columns = [...indexed.columns.values()];
      const pick = (pred: (c: VocabularyColumn) => boolean): VocabularyColumn | undefined => columns.find(pred);
      const found = year
        ? (pick((c) => /year/i.test(c.name)) ?? pick((c) => DATE_TYPE.test(c.logicalType)) ?? pick((c) => /date|time/i.test(c.name)))
        : pick((c) => NUMERIC_TYPE.test(c.logicalType) && !ID_NAME.test(splitIdentifier(c.name, NAME_INDEX_SPLIT).join(' ')));
      if (found) return [{ tableId: g.tableId, columnId: found.id, score: 0.5, kind: 'column-name' }];
    }
    return undefined;
  }

  private attributeForColumns(columns: ColumnHit[], position: number, entity: EntityMention): AttributeMention {
    const first = columns[0];
    const column = this.names.tables.get(first.tableId)?.columns.get(first.columnId);
    const label = column ? splitIdentifier(column.name, NAME_INDEX_SPLIT).join(' ') : first.columnId;
    return {
      label,
      position,
      columns,
      grounding: topColumns(columns, this.maxGroundings, false),
      entity,
      values: [],
    };
  }

  // ---- entities ---------------------------------------------------------------------------

  /** Order each entity's candidate tables: match score, then how much of the question they hold. */
  private rankEntities(entities: EntityMention[], attributes: AttributeMention[], values: ValueMention[]): void {
    if (entities.length === 0) return;
    // Tables each attribute/value could live in, computed once (an "id" hits every table).
    const holders = [
      ...attributes.map((a) => new Set(a.columns.map((c) => c.tableId))),
      ...values.filter((v) => v.locations.length > 0).map((v) => new Set(v.locations.map((l) => l.tableId))),
    ];
    // A table holding every attribute/value of the question keeps its match score; one holding
    // none drops to 80% of it, so same-named tables are told apart by their columns.
    const support = (tableId: string): number =>
      holders.length === 0 ? 1 : holders.reduce((n, h) => n + (h.has(tableId) ? 1 : 0), 0) / holders.length;
    for (const e of entities) {
      e.ranked = [...e.tables.entries()]
        .map(([tableId, m]) => ({ tableId, kind: m.kind, score: round(m.score * (0.8 + 0.2 * support(tableId))) }))
        .sort((a, b) => b.score - a.score || cmp(a.tableId, b.tableId))
        .slice(0, this.maxGroundings);
    }
  }

  /** The named entity (nearest first) whose ranked tables hold one of the columns. */
  private hostFor(columns: ColumnHit[], entities: EntityMention[], position: number): { entity: EntityMention; grounding: Grounding[] } | undefined {
    let best: { entity: EntityMention; grounding: Grounding[] } | undefined;
    let bestDistance = Infinity;
    for (const e of entities) {
      const rank = new Map(e.ranked.map((g, i) => [g.tableId, i]));
      const inside = columns.filter((c) => rank.has(c.tableId));
      if (inside.length === 0) continue;
      const d = Math.abs(e.position - position);
      if (d < bestDistance) {
        bestDistance = d;
        inside.sort((a, b) => rank.get(a.tableId)! - rank.get(b.tableId)! || b.score - a.score || cmp(a.columnId, b.columnId));
        best = { entity: e, grounding: topColumns(inside, this.maxGroundings, false) };
      }
    }
    return best;
  }

  /** Greedy set cover: the table holding most pool items becomes an implied entity, repeat. */
  private coverPool(pool: CoverItem[], attributes: AttributeMention[]): EntityMention[] {
    const implied: EntityMention[] = [];
    let left = [...pool];
    while (left.length > 0) {
      const gain = new Map<string, { count: number; score: number }>();
      for (const item of left) {
        const best = new Map<string, number>();
        for (const c of item.columns) best.set(c.tableId, Math.max(best.get(c.tableId) ?? 0, c.score));
        for (const [t, s] of best) {
          const g = gain.get(t) ?? { count: 0, score: 0 };
          g.count += 1;
          g.score += s;
          gain.set(t, g);
        }
      }
      const ranked = [...gain.entries()].sort(
        (a, b) => b[1].count - a[1].count || b[1].score - a[1].score || cmp(a[0], b[0]),
      );
      if (ranked.length === 0) break;
      const [topId, top] = ranked[0];
      // Tables covering exactly as much are equally good readings: keep them as alternatives.
      const ties = ranked.filter(([, g]) => g.count === top.count && g.score === top.score).slice(0, this.maxGroundings);
      const tieIds = new Set(ties.map(([t]) => t));
      const covered = left.filter((item) => item.columns.some((c) => c.tableId === topId));
      left = left.filter((item) => !covered.includes(item));
      const kind: GroundingKind = covered.some((i) => i.attribute) ? 'column-name' : 'value';
      const tableName = this.names.tables.get(topId)?.table.name ?? topId;
      const entity: EntityMention = {
        label: splitIdentifier(tableName, NAME_INDEX_SPLIT).join(' ') || tableName,
        position: Math.min(...covered.map((i) => i.position)),
        tables: new Map(),
        ranked: ties.map(([tableId, g]) => ({ tableId, kind, score: round((IMPLIED_FACTOR * g.score) / g.count) })),
        spans: [],
      };
      implied.push(entity);
      const rank = new Map(entity.ranked.map((g, i) => [g.tableId, i]));
      for (const item of covered) {
        const inside = item.columns
          .filter((c) => rank.has(c.tableId))
          .sort((a, b) => rank.get(a.tableId)! - rank.get(b.tableId)! || b.score - a.score || cmp(a.columnId, b.columnId));
        if (item.attribute) {
          item.attribute.entity = entity;
          item.attribute.grounding = topColumns(inside, this.maxGroundings, false);
        } else if (item.value) {
          const attr = this.attributeForColumns(inside, item.position, entity);
          attributes.push(attr);
          bind(item.value, attr);
        }
      }
    }
    return implied;
  }

  private describeMatches(
    question: string,
    tokens: QuestionToken[],
    entities: EntityMention[],
    attributes: AttributeMention[],
    values: ValueMention[],
  ): IntentMatch[] {
    const text = (first: number, last: number): string => {
      return question.slice(tokens[first].start, tokens[last].end);
    };
    const out: IntentMatch[] = [];
    for (const e of entities) {
      for (const s of e.spans) out.push({ text: text(s.first, s.last), tokenStart: s.first, tokenEnd: s.last + 1, role: 'entity', grounding: e.ranked });
    }
    for (const a of attributes) {
      if (a.span) out.push({ text: text(a.span.first, a.span.last), tokenStart: a.span.first, tokenEnd: a.span.last + 1, role: 'attribute', grounding: a.grounding });
    }
    for (const v of values) {
      out.push({ text: text(v.position, v.end), tokenStart: v.position, tokenEnd: v.end + 1, role: 'value', grounding: valueGrounding(v) });
    }
    return out.sort((a, b) => a.tokenStart - b.tokenStart || cmp(a.role, b.role));
  }

  // ---- grounding an external graph ----------------------------------------------------------

  /**
   * Fill in `grounding` on a graph that has none (an LLM's): entity labels against table names
   * (then synonyms), attribute labels against columns of the entity's tables (then any table),
   * value literals against the value index, every value of a column (`allValues`): the graph says
   * they are values, which is what `readsAsName` guesses for a question's own words. Existing
   * grounding is kept.
   */
  ground(graph: IntentGraph): IntentGraph {
    const trees: IntentTree[] = graph.trees.map((tree) => {
      const entityGrounding = tree.entity.grounding ?? this.groundName(tree.entity.label, 'table');
      const tables = new Map(entityGrounding.map((g, i) => [g.tableId, i]));
      const attributes: AttributeNode[] = tree.attributes.map((attr) => {
        let grounding = attr.grounding;
        if (!grounding) {
          const all = this.groundName(attr.label, 'column');
          const inside = all.filter((g) => tables.has(g.tableId));
          grounding = inside.length > 0 ? inside : all.slice(0, this.maxGroundings);
        }
        if (!attr.value || attr.value.grounding) return { ...attr, grounding };
        const literals = Array.isArray(attr.value.literal) ? attr.value.literal : [attr.value.literal];
        const hits: Grounding[] = [];
        for (const lit of literals) {
          // The graph names it as a value: any cell may hold it, not only a column's top values.
          for (const l of this.vocabulary.lookupValue(String(lit).replace(/^%|%$/g, ''), { allValues: true })) {
            if (!hits.some((h) => h.tableId === l.tableId && h.columnId === l.columnId)) {
              hits.push({ tableId: l.tableId, columnId: l.columnId, kind: 'value', score: VALUE_SCORE });
            }
          }
        }
        const preferred = hits.filter((h) => grounding!.some((g) => g.tableId === h.tableId && g.columnId === h.columnId));
        const valueGround = (preferred.length > 0 ? preferred : hits).slice(0, this.maxGroundings);
        return { ...attr, grounding, value: { ...attr.value, grounding: valueGround } };
      });
      return { entity: { ...tree.entity, grounding: entityGrounding }, attributes };
    });
    return { ...graph, trees };
  }

  private groundName(label: string, want: 'table' | 'column'): Grounding[] {
    const pick = (hits: NameHit[] | undefined, kind: GroundingKind, factor: number): Grounding[] =>
      (hits ?? [])
        .filter((h) => (want === 'table' ? h.columnId === undefined : h.columnId !== undefined))
        .map((h) => ({ tableId: h.tableId, ...(h.columnId ? { columnId: h.columnId } : {}), kind, score: round(h.score * factor) }));
    const direct = pick(this.names.lookup(bagKey(this.names.nameWords(label))), want === 'table' ? 'table-name' : 'column-name', 1);
    if (direct.length > 0) return want === 'table' ? direct.slice(0, this.maxGroundings) : direct;
    if (!this.synonyms) return [];
    const out: Grounding[] = [];
    for (const s of this.synonyms.synonyms(this.names.nameWords(label).join(' '))) {
      for (const g of pick(this.names.lookup(bagKey(this.names.nameWords(s))), 'synonym', SYNONYM_FACTOR)) {
        if (!out.some((o) => o.tableId === g.tableId && o.columnId === g.columnId)) out.push(g);
      }
    }
    return want === 'table' ? out.slice(0, this.maxGroundings) : out;
  }
}

// ---- helpers ----------------------------------------------------------------------------------

/** Longest first, names before values on equal length, leftmost first; no shared tokens. */
function selectGreedy(candidates: Candidate[], claimed: Set<number>): Candidate[] {
  const order: Record<Candidate['kind'], number> = { name: 0, value: 1, synonym: 2 };
  candidates.sort((a, b) => b.weight - a.weight || order[a.kind] - order[b.kind] || a.first - b.first || a.last - b.last);
  const out: Candidate[] = [];
  for (const c of candidates) {
    if (c.tokens.some((t) => claimed.has(t))) continue;
    for (const t of c.tokens) claimed.add(t);
    out.push(c);
  }
  return out;
}

/** Runs of content-word token indices, broken at punctuation, values and coordinations. */
function contentSegments(tokens: QuestionToken[], isContent: boolean[]): number[][] {
  const segments: number[][] = [];
  let current: number[] = [];
  for (const t of tokens) {
    const breaks = t.kind !== 'word' || SEGMENT_BREAK_WORDS.has(t.lower);
    if (breaks) {
      if (current.length > 0) segments.push(current);
      current = [];
    } else if (isContent[t.index]) {
      current.push(t.index);
    }
  }
  if (current.length > 0) segments.push(current);
  return segments;
}

function mergeEntities(entities: EntityMention[]): EntityMention[] {
  const byTop = new Map<string, EntityMention>();
  const out: EntityMention[] = [];
  for (const e of entities) {
    const key = e.ranked[0]?.tableId ?? `label:${e.label}`;
    const existing = byTop.get(key);
    if (existing) {
      existing.spans.push(...e.spans);
      for (const [t, m] of e.tables) if (!existing.tables.has(t)) existing.tables.set(t, m);
    } else {
      byTop.set(key, e);
      out.push(e);
    }
  }
  return out;
}

function nearest<T extends { position: number }>(items: T[], position: number): T {
  let best = items[0];
  for (const item of items) {
    if (Math.abs(item.position - position) < Math.abs(best.position - position)) best = item;
  }
  return best;
}

function nearestAttribute(
  attributes: AttributeMention[],
  v: ValueMention,
  accept: (a: AttributeMention) => boolean,
): AttributeMention | undefined {
  let best: AttributeMention | undefined;
  let bestKey = Infinity;
  for (const a of attributes) {
    if (!accept(a)) continue;
    // Prefer an attribute before the value ("GPA above 3.5") over one after it at equal distance.
    const key = Math.abs(v.position - a.position) * 2 + (a.position > v.position ? 1 : 0);
    if (key < bestKey) {
      bestKey = key;
      best = a;
    }
  }
  return best;
}

function bind(v: ValueMention, a: AttributeMention): true {
  v.attribute = a;
  a.values.push(v);
  return true;
}

function distinctTables(columns: ColumnHit[]): number {
  return new Set(columns.map((c) => c.tableId)).size;
}

function topColumns(columns: ColumnHit[], max: number, sort = true): Grounding[] {
  const list = sort
    ? [...columns].sort((a, b) => b.score - a.score || cmp(a.tableId, b.tableId) || cmp(a.columnId, b.columnId))
    : columns;
  return list.slice(0, max).map((c) => ({ tableId: c.tableId, columnId: c.columnId, kind: c.kind, score: round(c.score) }));
}

function valueGrounding(v: ValueMention): Grounding[] {
  return v.locations.slice(0, 5).map((l) => ({
    tableId: l.tableId,
    columnId: l.columnId,
    kind: 'value' as const,
    score: v.span?.score ?? VALUE_SCORE,
  }));
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '') || 'x';
}

/**
 * The question's main noun phrase: the first run of adjacent content words that ends in a noun
 * (when `isNoun` can tell), trailing non-nouns dropped, head word lemmatised
 * ("How many singers do we have?" -> singer; "unicorns live in Narnia" -> unicorn).
 */
export function mainNounPhrase(
  tokens: QuestionToken[],
  lemmatiser: Lemmatiser,
  isNoun?: (word: string) => boolean,
): string {
  const runs: QuestionToken[][] = [];
  let run: QuestionToken[] = [];
  for (const t of tokens) {
    const content =
      t.kind === 'word' && !STOP_WORDS.has(t.lower) && !STOP_WORDS.has(lemmatiser.lemma(t.lower)) && !SEGMENT_BREAK_WORDS.has(t.lower);
    if (content) {
      run.push(t);
    } else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  if (runs.length === 0) return 'question';
  let best = runs[0];
  if (isNoun) {
    const noun = (t: QuestionToken): boolean => isNounLike(t, lemmatiser.lemma(t.lower), isNoun);
    for (const r of runs) {
      let end = r.length;
      while (end > 0 && !noun(r[end - 1])) end--;
      if (end > 0) {
        best = r.slice(0, end);
        break;
      }
    }
  }
  const words = best.map((t) => t.lower);
  words[words.length - 1] = lemmatiser.lemma(words[words.length - 1]);
  return words.join(' ');
}

/** A noun by WordNet (when available) and not a participle ("scored", "living"). */
function isNounLike(token: QuestionToken, lemma: string, isNoun?: (word: string) => boolean): boolean {
  if (/(ed|ing)$/.test(token.lower) && token.lower.length > 4) return false;
  return isNoun ? isNoun(lemma) || isNoun(token.lower) : true;
}

function fallbackGraph(label: string): IntentGraph {
  return { version: INTENT_SCHEMA_VERSION, trees: [{ entity: { id: slug(label), label } , attributes: [] }], edges: [] };
}

/** Assemble the validated graph: trees in question order, values merged, edges chaining trees. */
function buildGraph(entities: EntityMention[], attributes: AttributeMention[]): IntentGraph {
  const used = new Set<string>();
  const uniqueId = (base: string): string => {
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}~${n}`;
    used.add(id);
    return id;
  };
  const trees: IntentTree[] = [];
  const entityIds = new Map<EntityMention, string>();
  for (const e of entities) {
    const id = uniqueId(slug(e.label));
    entityIds.set(e, id);
    const own = attributes.filter((a) => a.entity === e).sort((a, b) => a.position - b.position);
    const nodes: AttributeNode[] = [];
    for (const a of own) {
      const makeNode = (leaf?: { operator: ValueOperator; literal: ValueLiteral; grounding: Grounding[] }): AttributeNode => {
        const attrId = uniqueId(`${id}.${slug(a.label)}`);
        const node: AttributeNode = { id: attrId, label: a.label };
        if (a.grounding.length > 0) node.grounding = a.grounding;
        if (leaf) {
          node.value = { id: uniqueId(`${attrId}.value`), operator: leaf.operator, literal: leaf.literal };
          if (leaf.grounding.length > 0) node.value.grounding = leaf.grounding;
        }
        return node;
      };
      if (a.values.length === 0) {
        // Two mentions of one column (e.g. "age ... by age") make one node.
        if (!nodes.some((n) => n.label === a.label && !n.value)) nodes.push(makeNode());
        continue;
      }
      const equal = a.values.filter((v) => v.operator === '=');
      const others = a.values.filter((v) => v.operator !== '=');
      if (equal.length > 0) {
        const literal: ValueLiteral =
          equal.length === 1 ? equal[0].literal : equal.map((v) => v.literal as string | number);
        nodes.push(makeNode({ operator: equal.length === 1 ? '=' : 'in', literal, grounding: valueGrounding(equal[0]) }));
      }
      for (const v of others) nodes.push(makeNode({ operator: v.operator, literal: v.literal, grounding: valueGrounding(v) }));
    }
    const entity: IntentTree['entity'] = { id, label: e.label };
    if (e.ranked.length > 0) entity.grounding = e.ranked;
    trees.push({ entity, attributes: nodes });
  }
  const edges: CrossTreeEdge[] = [];
  for (let i = 1; i < entities.length; i++) {
    const from = entityIds.get(entities[i - 1])!;
    const to = entityIds.get(entities[i])!;
    edges.push({ id: uniqueId(`${from}--${to}`), from, to });
  }
  // Validate what we built: an extractor bug surfaces as a warning-carrying fallback, not bad data.
  return parseIntentGraph({ version: INTENT_SCHEMA_VERSION, trees, edges });
}

const sharedExtractors = new WeakMap<CatalogVocabulary, OfflineExtractor>();

/**
 * One-shot form of `new OfflineExtractor(vocab, opts).extract(question)`. Without options the
 * extractor (and its indexes) is cached per vocabulary object.
 */
export function extractIntentOffline(
  question: string,
  vocab: CatalogVocabulary,
  opts?: OfflineExtractorOptions,
): OfflineExtraction {
  if (opts) return new OfflineExtractor(vocab, opts).extract(question);
  let extractor = sharedExtractors.get(vocab);
  if (!extractor) {
    extractor = new OfflineExtractor(vocab);
    sharedExtractors.set(vocab, extractor);
  }
  return extractor.extract(question);
}
