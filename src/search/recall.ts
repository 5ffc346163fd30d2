import { defaultWordVectors, type WordVectors } from '../embed/index.js';
import { identifierTerms, isGenericToken, isNumberToken, tokeniseIdentifier } from '../graph/index.js';
import { defaultLemmatiser, oneEditSpellings } from '../text/index.js';
import { defaultSynonyms, readsAsName, STOP_WORDS, tokeniseQuestion, type QuestionToken, type SynonymSource } from '../intent/index.js';
import { memoInto } from '../util/boundedMemo.js';
import type { LakeSnapshot, SnapshotTable } from './snapshot.js';

/**
 * The recall-oriented first stage: the question's own words against every table's name, column
 * names and text values, independent of what the intent extractor made of them. It answers two
 * things the search needs before any intent atom is trusted:
 *  - which tables could be part of the answer at all (the seeds and the region), and
 *  - how much of the question a set of tables accounts for (`QuestionCoverage`), the measure
 *    that candidate syntheses are grown and compared on.
 *
 * A question term is a content word (stop words dropped), normalised the way identifiers are
 * (`tokeniseIdentifier`: lower case, singular), so "singers" meets `singer_id`. Its weight is its
 * inverse document frequency over the lake's tables: `name` or `id`, found everywhere, say little.
 */
export interface RecallOptions {
  /** Match strength of a term found in a table's name. */
  nameMatch: number;
  /** ... in one of its column names. */
  columnMatch: number;
  /** ... among the text values of one of its columns (a question n-gram equal to a cell). */
  valueMatch: number;
  /**
   * Factor for a cell found by hash only, beyond its column's top values (a span that reads as a
   * name: `readsAsName`). A name is a cell of many a large column of a pooled lake (Aberdeen of
   * a world city table beside the airports that a question means).
   */
  hashedValueFactor: number;
  /** Weight factor of generic identifier words (id, name, code, type, ...). */
  genericWeight: number;
  /**
   * Value hits of an n-gram found in more tables than this are not evidence. A term's weight is
   * already its inverse document frequency, which discounts a value many tables share, so this
   * only bounds the work: on the train questions 12 cost Sufficiency (a city or country name held
   * by 13-30 tables of the pooled lake still pointed at the right one), and nothing changed above 30.
   */
  maxValueTables: number;
  /** Factor for a lake word sharing a long prefix with the question word (registered ~ registration, prereq ~ prerequisite). */
  prefixFactor: number;
  /** Shortest shared prefix that counts, and its least share of the shorter word. */
  prefixMin: number;
  prefixShare: number;
  /** Factor for each part of a closed compound the lake does not hold as one word (bodybuilder ~ body, builder). */
  compoundFactor: number;
  /** Shortest part of such a compound that counts. */
  compoundMinPart: number;
  /**
   * Factor for a lake word that two adjacent question words spell together (high schoolers ~
   * `Highschooler`, last name ~ `lastname`), given to each of the two words.
   */
  openCompoundFactor: number;
  /**
   * Factor for a lake word that abbreviates the question word (crs ~ course, dept ~ department).
   * It takes the synonym source's `isNoun` to tell an abbreviation from a word (cat is no
   * category): off without one.
   */
  abbreviationFactor: number;
  /** Factor for a WordNet synonym of the question word (pupil ~ student). */
  synonymFactor: number;
  /** Factor for a noun of the question word's family (rated ~ rating, taught ~ teacher, old ~ age). */
  derivedFactor: number;
  /**
   * Factor for a lake word or a cell one typing slip away (`oneEditSpellings`) from a question
   * word that nothing in the lake stands for and no cell holds ("allegry" ~ allergy); 0: off.
   */
  misspellingFactor: number;
  /** Shortest question word read as a possible misspelling (short words have many near words). */
  misspellingMinLength: number;
  /**
   * Factor for a more specific noun (a WordNet hyponym: aviator ~ pilot, article ~ paper) of a
   * question word the lake does not hold itself. A word the lake holds keeps its own tables:
   * for every word, original-wording train questions lost more than reworded ones gained.
   */
  narrowerFactor: number;
  /** How much of a name match a table loses for the share of its name the question leaves unexplained. */
  partialNameFactor: number;
  /** Weight factor of a bound word pair (attribute next to its entity), see `QuestionRecall`. */
  pairWeight: number;
  /** Synonym source (default WordNet nouns); `false`: none. */
  synonyms?: SynonymSource | false;
  /** A lake word whose word vector is this close to the question word's stands for it ("vocalist" ~ singer)... */
  vectorMinCosine: number;
  /** ... with this factor times the cosine, */
  vectorFactor: number;
  /** ... the closest few only; */
  vectorMaxRelatives: number;
  /**
   * ... and for a word the question spells in the plural, this many more: the lake words whose
   * plurals are closest to that spelling (files ~ documents, goods ~ products).
   */
  vectorPluralRelatives: number;
  /** Word vectors (default: `defaultWordVectors()`); `false`: none. */
  wordVectors?: WordVectors | false;
}

export const DEFAULT_RECALL_OPTIONS: RecallOptions = {
  nameMatch: 1,
  columnMatch: 0.6,
  valueMatch: 0.6,
  hashedValueFactor: 0.25,
  genericWeight: 0.3,
  maxValueTables: 30,
  prefixFactor: 0.7,
  prefixMin: 5,
  prefixShare: 0.6,
  compoundFactor: 0.7,
  compoundMinPart: 3,
  openCompoundFactor: 1,
  abbreviationFactor: 0.5,
  synonymFactor: 0.6,
  derivedFactor: 0.4,
  misspellingFactor: 0.7,
  misspellingMinLength: 5,
  narrowerFactor: 0.3,
  pairWeight: 0.5,
  partialNameFactor: 0.7,
  vectorMinCosine: 0.6,
  vectorFactor: 0.5,
  vectorMaxRelatives: 2,
  vectorPluralRelatives: 1,
};

/** A phrase "X of Y" of one word each side (WordNet's "course of study", "place of origin"); X is its head. */
const OF_PHRASE = /^(\S+) of \S+$/i;

/**
 * Entries each question-keyed cache of a `LexicalIndex` keeps (per kind: phrases, relatives, per
 * synonym source the WordNet words): words and word pairs come from callers' questions.
 */
const MAX_CACHED_PER_KIND = 50_000;

/** Prefix relatives are looked up by their first letters: the shortest shared prefix that can count. */
const PREFIX_KEY = 5;

export interface TableTerms {
  name: Set<string>;
  columns: Set<string>;
  /** Each column name's words (for phrases such as "first name", which one column must hold whole). */
  perColumn: Set<string>[];
}

/** Question-independent token index of a snapshot: one per snapshot (restricted views get their own). */
export class LexicalIndex {
  private static readonly bySnapshot = new WeakMap<LakeSnapshot, LexicalIndex>();

  static of(snapshot: LakeSnapshot): LexicalIndex {
    let index = LexicalIndex.bySnapshot.get(snapshot);
    if (!index) LexicalIndex.bySnapshot.set(snapshot, (index = new LexicalIndex(snapshot)));
    return index;
  }

  readonly terms = new Map<string, TableTerms>();
  /**
   * Tables whose name or columns hold the token. Numbers (`2` of `Code2`) are left out: a
   * question's own numbers are no words (`questionWords`), and a synonym spelt as one
   * (WordNet's "2" for two) would name every table with such a column.
   */
  private readonly postings = new Map<string, string[]>();

  private constructor(readonly snapshot: LakeSnapshot) {
    for (const t of snapshot.tables) {
      const terms = tableTerms(t);
      this.terms.set(t.id, terms);
      for (const tok of new Set([...terms.name, ...terms.columns])) {
        if (isNumberToken(tok)) continue;
        let list = this.postings.get(tok);
        if (!list) this.postings.set(tok, (list = []));
        list.push(t.id);
      }
    }
  }

  tablesWith(token: string): readonly string[] {
    return this.postings.get(token) ?? [];
  }

  has(token: string): boolean {
    return this.postings.has(token);
  }

  private readonly phraseCache = new Map<string, readonly string[]>();

  /**
   * Tables holding every word of a phrase of lake words (its `identifierTerms`) in their name or
   * in one column name ("first name": `first_name`, `FirstName`); cached per phrase.
   */
  tablesWithPhrase(parts: readonly string[]): readonly string[] {
    return memoInto(this.phraseCache, parts.join(' '), MAX_CACHED_PER_KIND, () => {
      const rarest = [...parts].sort((a, b) => this.tablesWith(a).length - this.tablesWith(b).length)[0];
      const holds = (words: Set<string>) => parts.every((w) => words.has(w));
      return (rarest === undefined ? [] : this.tablesWith(rarest)).filter((id) => {
        const tt = this.terms.get(id)!;
        return holds(tt.name) || tt.perColumn.some(holds);
      });
    });
  }

  /** Lake words sharing a long prefix with `token` (itself excluded), with the shared length. */
  prefixRelatives(token: string, minLength: number, share: number): string[] {
    if (token.length < Math.max(minLength, PREFIX_KEY)) return [];
    const out: string[] = [];
    for (const w of this.byPrefix().get(token.slice(0, PREFIX_KEY)) ?? []) {
      if (w === token) continue;
      let n = 0;
      while (n < w.length && n < token.length && w[n] === token[n]) n++;
      if (n >= minLength && n >= share * Math.min(w.length, token.length)) out.push(w);
    }
    return out;
  }

  private prefixIndex?: Map<string, string[]>;
  /** Lake words by their first PREFIX_KEY letters, built on first use. */
  private byPrefix(): Map<string, string[]> {
    if (!this.prefixIndex) {
      this.prefixIndex = new Map();
      for (const w of this.postings.keys()) {
        if (w.length < PREFIX_KEY) continue;
        const k = w.slice(0, PREFIX_KEY);
        let list = this.prefixIndex.get(k);
        if (!list) this.prefixIndex.set(k, (list = []));
        list.push(w);
      }
    }
    return this.prefixIndex;
  }

  private abbreviationIndex?: Map<string, string[]>;

  /**
   * Lake words that abbreviate `token` as schemas do (crs ~ course, dept ~ department, emp ~
   * employee, qty ~ quantity): three or four letters that are no English noun (`isNoun`), the
   * token's first letter and then letters of it in order, at most 60% of its length. Not cached:
   * `QuestionRecall` asks through `lakeForms`, which caches per synonym source and word.
   */
  abbreviations(token: string, isNoun: (word: string) => boolean): readonly string[] {
    if (!this.abbreviationIndex) {
      this.abbreviationIndex = new Map();
      for (const w of this.postings.keys()) {
        if (w.length < 3 || w.length > 4 || !/^\p{L}+$/u.test(w) || isGenericToken(w)) continue;
        let list = this.abbreviationIndex.get(w[0]!);
        if (!list) this.abbreviationIndex.set(w[0]!, (list = []));
        list.push(w);
      }
    }
    return (this.abbreviationIndex.get(token[0] ?? '') ?? []).filter((w) => w.length <= 0.6 * token.length && isSubsequence(w, token) && !isNoun(w));
  }

  /**
   * A closed compound of two lake words (bodybuilder ~ body + builder, laptime ~ lap + time): the
   * split whose shorter part is longest, each part at least `minPart` letters; none if the word
   * splits no way.
   */
  compoundParts(token: string, minPart: number): string[] {
    let best: string[] = [];
    let bestShort = 0;
    for (let i = minPart; i <= token.length - minPart; i++) {
      const head = token.slice(0, i);
      const tail = tokeniseIdentifier(token.slice(i))[0];
      if (!tail || !this.has(head) || !this.has(tail)) continue;
      const short = Math.min(head.length, tail.length);
      if (short > bestShort) (best = [head, tail]), (bestShort = short);
    }
    return best;
  }

  private readonly spellingCache = new Map<string, { words: readonly string[]; cells: readonly string[] }>();

  /**
   * The spellings one typing slip away from `token` (`oneEditSpellings`) that the lake holds, as
   * lake words and as cells among a column's top values. Cached per word: each is ~54 x its length
   * lookups, and a misspelt word recurs from question to question.
   */
  misspellings(token: string): { words: readonly string[]; cells: readonly string[] } {
    return memoInto(this.spellingCache, token, MAX_CACHED_PER_KIND, () => {
      const spellings = oneEditSpellings(token);
      const vocab = this.snapshot.vocabulary();
      return { words: spellings.filter((w) => this.has(w)), cells: spellings.filter((w) => vocab.lookupValue(w).length > 0) };
    });
  }

  /** Per phrase source (a synonym source), per relation and word: the lake forms of its phrases. */
  private readonly formCache = new WeakMap<object, Map<string, readonly string[]>>();

  /**
   * The phrases that are one lake word each ("student" among a word's WordNet synonyms, not
   * "educational institution"), as those words, in order; with `multiWord`, also those of two or
   * three words, not all generic, that the lake holds as one word (`firstname`) or as a phrase
   * (every word a lake word: "first name" for `first_name`, matched by `tablesWithPhrase`), as
   * that word and / or the space-joined words, and of a phrase "X of Y" its head X when X is a
   * specific lake word ("course of study", a synonym of curriculum: `course`). Cached per `source`
   * and `key` (the relation and the word): a word can have hundreds of narrower nouns, and words
   * recur from question to question.
   */
  lakeForms(source: object, key: string, phrases: () => readonly string[], multiWord = false): readonly string[] {
    let bySource = this.formCache.get(source);
    if (!bySource) this.formCache.set(source, (bySource = new Map()));
    return memoInto(bySource, multiWord ? `${key}\u0000phrases` : key, MAX_CACHED_PER_KIND, () => {
      const forms: string[] = [];
      for (const phrase of phrases()) {
        const head = multiWord ? OF_PHRASE.exec(phrase)?.[1] : undefined;
        if (head !== undefined) {
          const [word, ...rest] = identifierTerms(head);
          if (word && rest.length === 0 && !isGenericToken(word) && this.has(word)) forms.push(word);
          continue;
        }
        const parts = identifierTerms(phrase);
        if (parts.length === 1) {
          if (this.has(parts[0])) forms.push(parts[0]);
        } else if (multiWord && parts.length <= 3 && !parts.every((w) => isGenericToken(w))) {
          // Both spellings when the lake has both: one schema writes `Firstname`, another `first_name`.
          const joined = tokeniseIdentifier(parts.join(''));
          if (joined.length === 1 && this.has(joined[0])) forms.push(joined[0]);
          if (parts.every((w) => this.has(w))) forms.push(parts.join(' '));
        }
      }
      return forms;
    });
  }

  private vectorRows?: VectorRows;
  private pluralRows?: VectorRows;
  private readonly relativesCache = new Map<string, [string, number][]>();

  /**
   * Lake words whose word vectors are closest to `token`'s (cosine >= minCosine, best first, at
   * most `max`), generic identifier words left out; cached per word. With the question's plural
   * spelling of the word, then up to `plural.max` more whose plurals are closest to that
   * spelling: files ~ documents (0.73) is closer than file ~ document (0.60), and "goods" (~
   * products, 0.76) is not "good".
   */
  semanticRelatives(vectors: WordVectors, token: string, minCosine: number, max: number, plural?: { spelling: string; max: number }): readonly [string, number][] {
    const key = `${token}\u0000${plural ? `${plural.spelling}\u0000${plural.max}` : ''}\u0000${minCosine}\u0000${max}`;
    return memoInto(this.relativesCache, key, MAX_CACHED_PER_KIND, () => {
      const scan = (q: Float32Array | undefined, rows: VectorRows): [string, number][] => {
        const found: [string, number][] = [];
        if (!q) return found;
        for (let i = 0; i < rows.words.length; i++) {
          let s = 0;
          const o = i * rows.dims;
          for (let d = 0; d < rows.dims; d++) s += q[d] * rows.matrix[o + d];
          if (s >= minCosine && rows.words[i] !== token) found.push([rows.words[i], s]);
        }
        found.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
        return found;
      };
      const out = scan(vectors.vector(token), (this.vectorRows ??= this.lakeWordVectors(vectors, false))).slice(0, max);
      if (plural && plural.max > 0) {
        const extra = scan(vectors.vector(plural.spelling), (this.pluralRows ??= this.lakeWordVectors(vectors, true))).filter(([w]) => !out.some(([x]) => x === w));
        out.push(...extra.slice(0, plural.max));
      }
      return out;
    });
  }

  /** The lake words' vectors, or those of their plurals (the words with a plural the vectors know). */
  private lakeWordVectors(vectors: WordVectors, plurals: boolean): VectorRows {
    const words: string[] = [];
    const spellings: string[] = [];
    for (const w of [...this.postings.keys()].sort()) {
      if (w.length <= 2 || isGenericToken(w) || !vectors.has(w)) continue;
      const spelling = plurals ? pluralSpelling(w, vectors) : w;
      if (spelling === undefined) continue;
      words.push(w);
      spellings.push(spelling);
    }
    const matrix = new Float32Array(words.length * vectors.dims);
    spellings.forEach((w, i) => matrix.set(vectors.vector(w)!, i * vectors.dims));
    return { words, matrix, dims: vectors.dims };
  }

  /** Inverse document frequency over the snapshot's tables of a word found in `df` of them (BM25's form, >= 0). */
  idf(df: number): number {
    const n = this.snapshot.tables.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
}

interface VectorRows {
  words: string[];
  matrix: Float32Array;
  dims: number;
}

/** The plural of a lake word that the word vectors know and that normalises back to it (document -> documents). */
function pluralSpelling(word: string, vectors: WordVectors): string | undefined {
  const candidates = [`${word}s`, `${word}es`, ...(word.endsWith('y') ? [`${word.slice(0, -1)}ies`] : [])];
  return candidates.find((p) => vectors.has(p) && tokeniseIdentifier(p).join(' ') === word);
}

/**
 * Keyed by the (immutable) snapshot table, so read once per catalog snapshot and shared by its
 * restricted views (which reuse the table objects) and by support (support.ts).
 */
const termsByTable = new WeakMap<SnapshotTable, TableTerms>();

/** The words of a table's name and of each of its columns (`identifierTerms`), once per table. */
export function tableTerms(t: SnapshotTable): TableTerms {
  let terms = termsByTable.get(t);
  if (!terms) {
    const perColumn = t.columns.map((c) => new Set(identifierTerms(c.name)));
    termsByTable.set(t, (terms = { name: new Set(identifierTerms(t.name)), columns: new Set(perColumn.flatMap((c) => [...c])), perColumn }));
  }
  return terms;
}

export interface QuestionTerm {
  token: string;
  weight: number;
}

/**
 * Content words of a question in question order (repeats kept), normalised like identifier words,
 * each with the question's own spelling where normalising changed a single word ("goods" for
 * good, "files" for file): a plural can mean what its singular does not.
 */
export function questionWords(text: string): { token: string; surface: string }[] {
  const out: { token: string; surface: string }[] = [];
  for (const tok of tokeniseQuestion(text)) {
    if (tok.kind !== 'word' && tok.kind !== 'quoted') continue;
    if (tok.kind === 'word' && STOP_WORDS.has(tok.lower)) continue;
    const terms = identifierTerms(tok.lower);
    for (const t of terms) if (!STOP_WORDS.has(t) && !isNumberToken(t)) out.push({ token: t, surface: terms.length === 1 ? tok.lower : t });
  }
  return out;
}

let sharedSynonyms: SynonymSource | undefined;

/**
 * How strongly each table matches each question term, best evidence per (table, term); tables
 * matching no term are absent. Values: question n-grams (1-3 words) looked up in the value index.
 */
export class QuestionRecall {
  readonly terms: QuestionTerm[];
  /** Summed weight of the terms some table matches. */
  readonly totalWeight: number;
  /** Per table: match strength per term (index aligned with `terms`). */
  readonly matches = new Map<string, Float64Array>();
  /** Per table: the weighted sum of its matches. */
  readonly relevance = new Map<string, number>();
  /** Per table: the terms it matches by its own words or values (not only through relatives). */
  private readonly lexical = new Map<string, ReadonlySet<number>>();

  constructor(
    readonly index: LexicalIndex,
    question: string,
    readonly opts: RecallOptions = DEFAULT_RECALL_OPTIONS,
  ) {
    const synonyms = opts.synonyms === false ? undefined : (opts.synonyms ?? (sharedSynonyms ??= defaultSynonyms()));
    const vectors = opts.wordVectors === false ? undefined : (opts.wordVectors ?? defaultWordVectors());
    const isNoun = synonyms?.isNoun?.bind(synonyms);
    // Per word: the lake words that stand for it (itself, prefix relatives, compound parts, WordNet
    // nouns, word-vector neighbours) and their factor.
    const perWord = new Map<string, Map<string, number>>();
    // Relatives only (the word's family, its narrower nouns, its word-vector neighbours): evidence
    // for recall, not that the catalog knows the word ("paid" ~ payment, "salary" ~ payment; see
    // `matchesLexically`).
    const relativeOnly = new Map<string, Set<string>>();
    /** Per word: the nouns of its family, lake words or not, which cells may hold (`addCellStandIns`). */
    const familyNouns = new Map<string, string[]>();
    /** Per word read as misspelt: the cells one edit away (`addCellStandIns`). */
    const misspeltCells = new Map<string, readonly string[]>();
    const vocab = index.snapshot.vocabulary();
    const written = questionWords(question);
    const sequence = written.map((w) => w.token);
    /** Per word: its plural spelling in the question, if any. */
    const plurals = new Map(written.filter((w) => w.surface !== w.token).map((w) => [w.token, w.surface]));
    const pluralOf = (word: string) => {
      const spelling = plurals.get(word);
      return spelling && opts.vectorPluralRelatives > 0 ? { spelling, max: opts.vectorPluralRelatives } : undefined;
    };
    // What two adjacent question words say together, given to each of them: the lake word they
    // spell (high schoolers ~ `Highschooler`) and, as a WordNet noun phrase, its synonyms that
    // the lake holds (family name ~ surname, `last_name`).
    const byPair = new Map<string, Map<string, number>>();
    const give = (words: string[], form: string, factor: number) => {
      for (const w of words) {
        let m = byPair.get(w);
        if (!m) byPair.set(w, (m = new Map()));
        if (factor > (m.get(form) ?? 0)) m.set(form, factor);
      }
    };
    for (let i = 0; i + 1 < sequence.length; i++) {
      const both = [sequence[i], sequence[i + 1]];
      const joined = tokeniseIdentifier(both.join(''));
      if (opts.openCompoundFactor > 0 && joined.length === 1 && index.has(joined[0])) give(both, joined[0], opts.openCompoundFactor);
      if (synonyms && !both.every((w) => isGenericToken(w))) {
        const phrase = both.join(' ');
        for (const f of index.lakeForms(synonyms, `synonym:${phrase}`, () => synonyms.synonyms(phrase), true)) give(both, f, opts.synonymFactor);
      }
    }
    const asked = new Set(sequence);
    for (const word of asked) {
      const forms = new Map<string, number>();
      const relatives = new Set<string>();
      if (index.has(word)) forms.set(word, 1);
      for (const [w, f] of byPair.get(word) ?? []) if (!forms.has(w)) forms.set(w, f);
      for (const w of index.prefixRelatives(word, opts.prefixMin, opts.prefixShare)) if (!forms.has(w)) forms.set(w, opts.prefixFactor);
      if (!index.has(word)) for (const w of index.compoundParts(word, opts.compoundMinPart)) if (!forms.has(w)) forms.set(w, opts.compoundFactor);
      // Schemas shorten words the lake then holds only so (`CRS_CODE`, `DEPT_CODE`, College.`enr`).
      if (synonyms && isNoun && opts.abbreviationFactor > 0 && !isGenericToken(word)) {
        for (const w of index.lakeForms(synonyms, `abbreviation:${word}`, () => index.abbreviations(word, isNoun))) if (!forms.has(w)) forms.set(w, opts.abbreviationFactor);
      }
      // WordNet words that are one lake word ("student" for "pupil", not "educational
      // institution") or a phrase the lake holds ("first name" for "forename": `first_name`).
      const addLakeWords = (lakeWords: readonly string[], factor: number, relative: boolean) => {
        for (const w of lakeWords) {
          if (forms.has(w)) continue;
          forms.set(w, factor);
          if (relative) relatives.add(w);
        }
      };
      // The nouns of the word's family (through its lemma: taught -> teach -> teacher): those the
      // lake holds as words stand for it, and any of them may be a cell (`addCellStandIns`).
      const family = synonyms && opts.derivedFactor > 0 && !isGenericToken(word) ? (synonyms.relatedNouns?.(defaultLemmatiser().lemma(word)) ?? []) : [];
      if (synonyms && !isGenericToken(word)) {
        addLakeWords(index.lakeForms(synonyms, `synonym:${word}`, () => synonyms.synonyms(word), true), opts.synonymFactor, false);
        if (family.length > 0) addLakeWords(index.lakeForms(synonyms, `family:${word}`, () => family), opts.derivedFactor, true);
        if (opts.narrowerFactor > 0 && !index.has(word)) {
          addLakeWords(index.lakeForms(synonyms, `narrower:${word}`, () => synonyms.narrowerNouns?.(word) ?? []), opts.narrowerFactor, true);
        }
      }
      if (vectors && !isGenericToken(word)) {
        for (const [w, cos] of index.semanticRelatives(vectors, word, opts.vectorMinCosine, opts.vectorMaxRelatives, pluralOf(word))) {
          if (!forms.has(w)) forms.set(w, opts.vectorFactor * cos), relatives.add(w);
        }
      }
      // A word that nothing in the lake stands for, that no cell holds and that the word vectors
      // do not know as written may be misspelt ("allegry", "intellegence"): the lake words and the
      // top cells one typing slip away stand for it, as the word itself (a spelling, not a
      // relative). Known words are left alone: "Hopkins", singularised to hopkin, is a name.
      const spelt = plurals.get(word) ?? word;
      if (
        forms.size === 0 &&
        opts.misspellingFactor > 0 &&
        word.length >= opts.misspellingMinLength &&
        !(vectors?.has(spelt) || vectors?.has(word)) &&
        vocab.lookupValue(spelt, { allValues: true }).length === 0
      ) {
        const { words: near, cells } = index.misspellings(word);
        for (const w of near) forms.set(w, opts.misspellingFactor);
        if (cells.length > 0) misspeltCells.set(word, cells);
      }
      // The question's other words stand for themselves, not for this one: "teachers who advise
      // students" tells the two apart, though `student` is a word-vector neighbour of teacher.
      // As a stand-in, the student table half-covered "teacher" (0.4), and growth then gained
      // too little from the `instructor` table the synonym names to take it. A word so related to
      // another of the question's keeps none of its relatives (family, narrower nouns, vector
      // neighbours) either: the question says what it is beside ("players play for club AIB":
      // play is what the players do, and its neighbour `game` would bring in the game results).
      const others = [...forms.keys()].filter((f) => f !== word && asked.has(f));
      for (const f of others) forms.delete(f), relatives.delete(f);
      if (others.length > 0) {
        for (const f of relatives) forms.delete(f);
        relatives.clear();
      } else {
        const nouns = family.filter((w) => !w.includes(' ') && !asked.has(w));
        if (nouns.length > 0) familyNouns.set(word, nouns);
      }
      relativeOnly.set(word, relatives);
      perWord.set(word, forms);
    }
    const words = [...perWord.keys()];
    // Word pairs that bind an attribute to its entity ("player name", "name of the medicine"):
    // adjacent question words, matched by a table whose name holds one and a column the other.
    const pairs: [string, string][] = [];
    if (opts.pairWeight > 0) {
      for (let i = 0; i + 1 < sequence.length; i++) {
        const [x, y] = [sequence[i], sequence[i + 1]].sort();
        if (x === y || pairs.some(([p, q]) => p === x && q === y) || perWord.get(x)!.size === 0 || perWord.get(y)!.size === 0) continue;
        if (isGenericToken(x) && isGenericToken(y)) continue;
        pairs.push([x, y]);
      }
    }
    const nTerms = words.length + pairs.length;
    const byTable = new Map<string, Float64Array>();
    const row = (id: string) => {
      let r = byTable.get(id);
      if (!r) byTable.set(id, (r = new Float64Array(nTerms)));
      return r;
    };
    // A table name matches a word the more fully the question accounts for the name: `project`
    // is the project table's name, and only part of `project_assignment`'s.
    const allForms = new Set([...perWord.values()].flatMap((f) => [...f.keys()]));
    const nameShare = new Map<string, number>();
    const shareOf = (id: string, tt: TableTerms): number => {
      let s = nameShare.get(id);
      if (s === undefined) {
        let hit = 0;
        for (const t of tt.name) if (allForms.has(t)) hit++;
        nameShare.set(id, (s = tt.name.size > 0 ? hit / tt.name.size : 0));
      }
      return s;
    };
    const lexicalTerms = new Map<string, Set<number>>();
    const lexical = (id: string, k: number) => {
      let set = lexicalTerms.get(id);
      if (!set) lexicalTerms.set(id, (set = new Set()));
      set.add(k);
    };
    words.forEach((word, k) => {
      for (const [form, factor] of perWord.get(word)!) {
        const byRelative = relativeOnly.get(word)!.has(form);
        const parts = form.includes(' ') ? form.split(' ') : undefined;
        for (const id of parts ? index.tablesWithPhrase(parts) : index.tablesWith(form)) {
          const tt = index.terms.get(id)!;
          const nameMatch = opts.nameMatch * (1 - opts.partialNameFactor * (1 - shareOf(id, tt)));
          const inName = parts ? parts.every((w) => tt.name.has(w)) : tt.name.has(form);
          const m = factor * (inName ? nameMatch : opts.columnMatch);
          const r = row(id);
          if (m > r[k]) r[k] = m;
          if (!byRelative) lexical(id, k);
        }
      }
    });
    this.addValueHits(question, words, row, lexical);
    // A noun of a word's family that is a cell: a relative. A cell one slip from a misspelt word: the word.
    this.addCellStandIns(words, familyNouns, opts.valueMatch * opts.derivedFactor, row);
    this.addCellStandIns(words, misspeltCells, opts.valueMatch * opts.misspellingFactor, row, lexical);
    // Best of the weaker factor over a name form of one word and a column form of the other.
    const binds = (tt: TableTerms, inName: Map<string, number>, inColumn: Map<string, number>): number => {
      let best = 0;
      for (const [fx, gx] of inName) {
        if (!tt.name.has(fx)) continue;
        for (const [fy, gy] of inColumn) if (tt.columns.has(fy)) best = Math.max(best, Math.min(gx, gy));
      }
      return best;
    };
    pairs.forEach(([x, y], p) => {
      const k = words.length + p;
      const [a, b] = [perWord.get(x)!, perWord.get(y)!];
      const [kx, ky] = [words.indexOf(x), words.indexOf(y)];
      for (const form of [...a.keys(), ...b.keys()]) {
        for (const id of index.tablesWith(form)) {
          const tt = index.terms.get(id)!;
          const xy = binds(tt, a, b);
          const yx = binds(tt, b, a);
          if (xy <= 0 && yx <= 0) continue;
          const r = row(id);
          r[k] = Math.max(r[k], opts.nameMatch * Math.max(xy, yx));
          // An attribute bound to its entity's table is that table's own word, not a stray column match.
          if (xy > 0) r[ky] = Math.max(r[ky], opts.nameMatch * xy);
          if (yx > 0) r[kx] = Math.max(r[kx], opts.nameMatch * yx);
        }
      }
    });
    const labels = [...words, ...pairs.map(([x, y]) => `${x} ${y}`)];
    const factors = [...words.map((w) => (isGenericToken(w) ? opts.genericWeight : 1)), ...pairs.map(() => opts.pairWeight)];
    // A word's weight is its rarity among the tables that match it at all; unmatched words drop out.
    const df = new Int32Array(nTerms);
    for (const r of byTable.values()) r.forEach((m, k) => (m > 0 ? df[k]++ : 0));
    const keep = labels.map((_, k) => k).filter((k) => df[k] > 0);
    this.terms = keep.map((k) => ({ token: labels[k], weight: index.idf(df[k]) * factors[k] }));
    this.totalWeight = this.terms.reduce((s, t) => s + t.weight, 0);
    for (const [id, r] of byTable) this.matches.set(id, Float64Array.from(keep, (k) => r[k]));
    for (const [id, ks] of lexicalTerms) this.lexical.set(id, new Set(keep.flatMap((k, i) => (ks.has(k) ? [i] : []))));
    for (const [id, r] of this.matches) {
      let s = 0;
      r.forEach((m, k) => (s += m * this.terms[k].weight));
      this.relevance.set(id, s);
    }
  }

  /**
   * A question n-gram equal to a cell value supports the terms it is made of in that table. A
   * quoted string is one token, but one that no cell holds whole is looked up word by word like
   * the question's own words: "Linda Smith" is a first name and a last name, in two columns.
   */
  private addValueHits(question: string, terms: string[], row: (id: string) => Float64Array, lexical: (id: string, k: number) => void): void {
    const vocab = this.index.snapshot.vocabulary();
    const termIndex = new Map(terms.map((t, k) => [t, k]));
    const valueTokens = (tokens: QuestionToken[]) => tokens.filter((t) => t.kind === 'word' || t.kind === 'quoted' || t.kind === 'number');
    // The words of a quoted string that no cell holds whole are looked up among the top values
    // only, like the question's lower-case words: one word of a name is a cell of many a column.
    const quotedWords = new Set<QuestionToken>();
    const words = valueTokens(tokeniseQuestion(question)).flatMap((t) => {
      if (t.kind !== 'quoted' || vocab.lookupValue(t.text, { allValues: true }).length > 0) return [t];
      const inner = valueTokens(tokeniseQuestion(t.text));
      for (const w of inner) quotedWords.add(w);
      return inner;
    });
    for (let n = 3; n >= 1; n--) {
      for (let i = 0; i + n <= words.length; i++) {
        const span = words.slice(i, i + n);
        if (n === 1 && span[0].kind === 'word' && STOP_WORDS.has(span[0].lower)) continue;
        const hits = vocab.lookupValue(span.map((w) => w.text).join(' '), { allValues: !span.some((w) => quotedWords.has(w)) && readsAsName(span) });
        // Per table, its best hit: among a column's top values, else by hash only.
        const tables = new Map<string, number>();
        for (const h of hits) {
          const m = h.hashed ? this.opts.valueMatch * this.opts.hashedValueFactor : this.opts.valueMatch;
          if (m > (tables.get(h.tableId) ?? 0)) tables.set(h.tableId, m);
        }
        if (tables.size === 0 || tables.size > this.opts.maxValueTables) continue;
        const ks = [...new Set(span.flatMap((w) => identifierTerms(w.lower)))].map((t) => termIndex.get(t)).filter((k): k is number => k !== undefined);
        for (const [id, m] of tables) {
          const r = row(id);
          for (const k of ks) {
            if (m > r[k]) r[k] = m;
            lexical(id, k);
          }
        }
      }
    }
  }

  /**
   * Cells among a column's top values that stand for a question word support the word in their
   * tables at `m`: a noun of the word's family (a key-value table names an attribute in a row, not
   * in a column: "the fastest superheroes", fast -> speed, one `attribute_name` of the heroes'
   * attributes), or the word's spelling one typing slip away ("intellegence" ~ Intelligence).
   * Without `lexical` a relative, like the family's lake words: recall evidence, not that the
   * catalog knows the word.
   */
  private addCellStandIns(
    terms: string[],
    standIns: ReadonlyMap<string, readonly string[]>,
    m: number,
    row: (id: string) => Float64Array,
    lexical?: (id: string, k: number) => void,
  ): void {
    if (standIns.size === 0) return;
    const vocab = this.index.snapshot.vocabulary();
    terms.forEach((term, k) => {
      for (const cell of standIns.get(term) ?? []) {
        const tables = new Set(vocab.lookupValue(cell).map((h) => h.tableId));
        if (tables.size > this.opts.maxValueTables) continue;
        for (const id of tables) {
          const r = row(id);
          if (m > r[k]) r[k] = m;
          lexical?.(id, k);
        }
      }
    });
  }

  private rankedCache?: string[];

  /** Tables by relevance, best first (ties by uri); computed once. */
  ranked(): readonly string[] {
    if (!this.rankedCache) {
      const snap = this.index.snapshot;
      this.rankedCache = [...this.relevance.keys()].sort((a, b) => this.relevance.get(b)! - this.relevance.get(a)! || snap.compare(a, b));
    }
    return this.rankedCache;
  }

  private rankCache?: Map<string, number>;

  /** A table's position in `ranked()` (0: the most relevant); tables matching no term come after all. */
  rank(tableId: string): number {
    if (!this.rankCache) this.rankCache = new Map(this.ranked().map((t, i) => [t, i]));
    return this.rankCache.get(tableId) ?? this.rankCache.size;
  }

  match(tableId: string): Float64Array | undefined {
    return this.matches.get(tableId);
  }

  /** Whether the table matches term `k` by its own words or values, not only through a relative (word family, narrower noun, word vectors). */
  matchesLexically(tableId: string, k: number): boolean {
    return this.lexical.get(tableId)?.has(k) ?? false;
  }
}

/** Whether the letters of `short` occur in `long` in order, the first at its start. */
function isSubsequence(short: string, long: string): boolean {
  if (short[0] !== long[0]) return false;
  let i = 0;
  for (const ch of long) if (ch === short[i]) i++;
  return i === short.length;
}
