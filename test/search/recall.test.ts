import { describe, expect, it } from 'vitest';
import { WordVectors } from '../../src/embed/index.js';
import type { LakeSnapshot } from '../../src/search/index.js';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall, type RecallOptions } from '../../src/search/recall.js';
import { snapshotOf, table } from './fixture.js';

/**
 * The recall stage's WordNet rules, on the shipped WordNet files: a question verb or adjective
 * meets the lake's nouns of its family (rated ~ rating, taught ~ teacher, oldest ~ age), and a
 * noun the lake does not hold meets its narrower nouns (aviators ~ pilot).
 */
function lake() {
  return snapshotOf(
    [
      table('song', ['song_id', 'title', 'genre']),
      table('rating', ['song_id', 'stars', 'reviewer_id']),
      table('instructor', ['instructor_id', 'name', 'age']),
      table('teacher', ['teacher_id', 'name', 'subject']),
      table('pilot', ['pilot_id', 'name', 'rank']),
      table('record', ['pilot_id', 'flight_date']),
      table('vessel', ['vessel_id', 'tonnage']),
      table('ship', ['ship_id', 'captain']),
    ],
    [],
  );
}

/** Index of the question term `token` in the recall's terms (-1: the word matched nothing). */
const termIndex = (recall: QuestionRecall, token: string) => recall.terms.findIndex((t) => t.token === token);

/** The recall of `question` on `lake` with the default options but no word vectors (unless `partial` gives some). */
const recallOn = (lake: LakeSnapshot, question: string, partial: Partial<RecallOptions> = {}) =>
  new QuestionRecall(LexicalIndex.of(lake), question, { ...DEFAULT_RECALL_OPTIONS, wordVectors: false, ...partial });

const recallOf = (question: string, derivedFactor = DEFAULT_RECALL_OPTIONS.derivedFactor, narrowerFactor = DEFAULT_RECALL_OPTIONS.narrowerFactor) =>
  recallOn(lake(), question, { derivedFactor, narrowerFactor });

describe('question recall: the word family', () => {
  it('a verb meets the noun of its action ("rated" -> the rating table) at the family factor', () => {
    const recall = recallOf('Which songs were rated by more than five reviewers?');
    const k = termIndex(recall, 'rated');
    expect(k).toBeGreaterThanOrEqual(0);
    // A full name match, scaled by the family factor.
    expect(recall.match('rating')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.derivedFactor, 6);
    expect(recall.match('song')?.[k] ?? 0).toBe(0);
    // Without the rule "rated" matches no table and drops out of the question's terms.
    expect(recallOf('Which songs were rated by more than five reviewers?', 0).terms.map((t) => t.token)).not.toContain('rated');
  });

  it('an irregular verb goes through its lemma ("taught" -> teach -> teacher)', () => {
    const recall = recallOf('Who taught the most subjects?');
    const k = termIndex(recall, 'taught');
    expect(recall.match('teacher')![k]).toBeGreaterThan(0);
    expect(recall.match('instructor')?.[k] ?? 0).toBe(0);
  });

  it('an adjective meets the noun of what it measures ("older" is a stop word, "old" is not: old -> age)', () => {
    const recall = recallOf('How old is the instructor named Smith?');
    const k = termIndex(recall, 'old');
    // Bound to "instructor" next to it (the pair rule): the instructor table's own word.
    expect(recall.match('instructor')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.derivedFactor, 6);
    expect(recall.match('teacher')?.[k] ?? 0).toBe(0);
  });
});

describe('question recall: the ranking', () => {
  it('rank() is a table\'s position in ranked(), tables matching nothing after all', () => {
    const recall = recallOf('Which songs were rated by more than five reviewers?');
    const ranked = recall.ranked();
    expect(ranked.length).toBeGreaterThan(1);
    ranked.forEach((t, i) => expect(recall.rank(t)).toBe(i));
    expect(recall.rank('vessel')).toBe(ranked.length);
  });
});

describe('question recall: narrower nouns', () => {
  it('a noun the lake does not hold meets a narrower one it does ("aviators" -> the pilot table) at the narrower factor', () => {
    const question = 'Show names of aviators that have more than one record.';
    const recall = recallOf(question);
    const k = termIndex(recall, 'aviator');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('pilot')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.narrowerFactor, 6);
    // A relative, not the table's own word: it widens recall, it is not lexical support.
    expect(recall.matchesLexically('pilot', k)).toBe(false);
    // Without the rule "aviators" matches no table and drops out of the question's terms.
    expect(recallOf(question, undefined, 0).terms.map((t) => t.token)).not.toContain('aviator');
  });

  it('a noun the lake holds keeps its own tables: its narrower nouns are not added ("vessels" does not reach ship)', () => {
    // WordNet has ship among the narrower nouns of vessel (a ship is a kind of vessel).
    const recall = recallOf('How many vessels are there?');
    const k = termIndex(recall, 'vessel');
    expect(recall.match('vessel')![k]).toBe(1);
    expect(recall.match('ship')?.[k] ?? 0).toBe(0);
  });
});

describe('LexicalIndex.lakeForms', () => {
  it('keeps the phrases that are one lake word, in order, once per source and key', () => {
    const index = LexicalIndex.of(lake());
    const source = {};
    let calls = 0;
    const phrases = () => (calls++, ['pilot', 'air base', 'qwertyuiop', 'songs', 'pilot']);
    // "air base" is two words, "qwertyuiop" no lake word; "songs" is the lake's song.
    expect(index.lakeForms(source, 'narrower:aviator', phrases)).toEqual(['pilot', 'song', 'pilot']);
    expect(index.lakeForms(source, 'narrower:aviator', phrases)).toEqual(['pilot', 'song', 'pilot']);
    expect(calls).toBe(1);
    // Another source (a test's own synonyms) is not answered from the first one's cache.
    expect(index.lakeForms({}, 'narrower:aviator', () => ['teacher'])).toEqual(['teacher']);
  });
});

/** A school lake whose column names spell out what questions say in other words. */
function schoolLake() {
  return snapshotOf(
    [
      table('Highschooler', ['id', 'name', 'grade']),
      table('Friend', ['student_id', 'friend_id']),
      table('school', ['school_id', 'school_name']),
      table('employee', ['employee_id', 'first_name', 'last_name']),
      table('department', ['department_id', 'name']),
    ],
    [],
  );
}

const schoolRecall = (question: string, partial: Partial<RecallOptions> = {}) => recallOn(schoolLake(), question, partial);

describe('question recall: what two adjacent words say together', () => {
  it('two words spelling one lake word meet it ("high schoolers" -> Highschooler) at the open-compound factor', () => {
    const recall = schoolRecall('Show the names of high schoolers and their number of friends.');
    for (const word of ['high', 'schooler']) {
      expect(recall.match('Highschooler')![termIndex(recall, word)]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.openCompoundFactor, 6);
    }
    // Without the rule "schoolers" reaches only `school` (a shared prefix), "high" nothing.
    const without = schoolRecall('Show the names of high schoolers and their number of friends.', { openCompoundFactor: 0 });
    expect(without.match('Highschooler')?.[termIndex(without, 'schooler')] ?? 0).toBe(0);
    expect(without.match('school')![termIndex(without, 'schooler')]).toBeGreaterThan(0);
  });

  it('a WordNet noun phrase of two question words meets its synonyms the lake holds as a column ("family name" -> last_name)', () => {
    const recall = schoolRecall('What is the family name of the employee with id 3?');
    const k = termIndex(recall, 'family');
    expect(k).toBeGreaterThanOrEqual(0);
    // WordNet: family name ~ surname, last name; a column match scaled by the synonym factor.
    expect(recall.match('employee')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.synonymFactor * DEFAULT_RECALL_OPTIONS.columnMatch, 6);
    expect(recall.matchesLexically('employee', k)).toBe(true);
    expect(recall.match('department')?.[k] ?? 0).toBe(0);
  });
});

describe('question recall: synonyms the lake holds as a phrase', () => {
  it('a word whose WordNet synonym is a phrase meets the tables with a column holding the whole phrase ("forenames" -> first_name)', () => {
    const recall = schoolRecall('List the forenames of every employee.');
    const k = termIndex(recall, 'forename');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('employee')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.synonymFactor * DEFAULT_RECALL_OPTIONS.columnMatch, 6);
    // `department` has a `name` column but no `first`: the phrase needs one column holding both.
    expect(recall.match('department')?.[k] ?? 0).toBe(0);
  });

  it('a phrase synonym the lake spells both ways meets both spellings ("forename" -> `Firstname` and `first_name`)', () => {
    const lake = snapshotOf([table('band', ['band_id', 'Firstname', 'Lastname']), table('employee', ['employee_id', 'first_name', 'last_name']), table('list', ['LastName', 'FirstName'])], []);
    const index = LexicalIndex.of(lake);
    expect(index.lakeForms({}, 'synonym:forename', () => ['first name', 'given name'], true)).toEqual(['firstname', 'first name']);
    const recall = recallOn(lake, 'List the forenames of every member.');
    const k = termIndex(recall, 'forename');
    expect(k).toBeGreaterThanOrEqual(0);
    for (const name of ['band', 'employee', 'list']) {
      expect(recall.match(name)![k], name).toBeCloseTo(DEFAULT_RECALL_OPTIONS.synonymFactor * DEFAULT_RECALL_OPTIONS.columnMatch, 6);
    }
  });

  it('a synonym "X of Y" meets the tables named by its head X ("curriculum" ~ "course of study" -> course)', () => {
    const lake = snapshotOf([table('course', ['course_id', 'title']), table('student', ['student_id', 'name'])], []);
    const recall = recallOn(lake, 'What is the title of the curriculum with the most students?');
    const k = termIndex(recall, 'curriculum');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('course')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.synonymFactor, 6);
    expect(recall.matchesLexically('course', k)).toBe(true);
    // Only the head: the other word of the phrase names nothing, a generic head is no form.
    const index = LexicalIndex.of(schoolLake());
    expect(index.lakeForms({}, 'synonym:y', () => ['school of thought', 'name of school', 'department of x y'], true)).toEqual(['school']);
    expect(index.lakeForms({}, 'synonym:y', () => ['school of thought'])).toEqual([]);
  });

  it('LexicalIndex.lakeForms with multi-word phrases keeps those the lake holds as one word or as words of one name, never generic-only ones', () => {
    const index = LexicalIndex.of(schoolLake());
    const phrases = ['high schooler', 'first name', 'given name', 'school id', 'id name', 'one', 'a b c d'];
    // "high schooler" is the lake word highschooler; "given" is no lake word; "id name" is generic only.
    expect(index.lakeForms({}, 'synonym:x', () => phrases, true)).toEqual(['highschooler', 'first name', 'school id']);
    // Without multi-word phrases none of these is a form (and the key keeps the two apart).
    expect(index.lakeForms({}, 'synonym:x', () => phrases)).toEqual([]);
    expect(index.tablesWithPhrase(['first', 'name'])).toEqual(['employee']);
    expect(index.tablesWithPhrase(['school', 'name'])).toEqual(['school']);
    expect(index.tablesWithPhrase(['friend', 'name'])).toEqual([]);
  });
});

describe('question recall: word-vector relatives of a plural', () => {
  // Hand-made 3-d vectors: "good" and "goods" point different ways, as in GloVe (goods ~ products
  // 0.76, good ~ product 0.52); every other word is far from both.
  const q = (x: number, y: number, z: number) => [x, y, z].map((v) => Math.round(v * 127));
  const vectors = new WordVectors(
    ['good', 'goods', 'product', 'products', 'review', 'reviews'],
    3,
    Int8Array.from([...q(1, 0, 0), ...q(0, 1, 0), ...q(0.45, 0.5, 0.74), ...q(0, 0.9, 0.44), ...q(0, 0, 1), ...q(0.1, 0, 0.99)]),
  );
  const shop = () => snapshotOf([table('product', ['product_id', 'price']), table('review', ['review_id', 'good'])], []);
  const recallOf = (question: string, vectorPluralRelatives: number) =>
    recallOn(shop(), question, { synonyms: false, wordVectors: vectors, vectorPluralRelatives });

  it('a word the question spells in the plural also meets the lake word whose plural is closest to that spelling ("goods" -> product)', () => {
    const recall = recallOf('Which goods cost more than 10?', 1);
    const k = termIndex(recall, 'good');
    const cos = vectors.cosine('goods', 'products')!;
    expect(cos).toBeGreaterThan(DEFAULT_RECALL_OPTIONS.vectorMinCosine);
    expect(vectors.cosine('good', 'product')!).toBeLessThan(DEFAULT_RECALL_OPTIONS.vectorMinCosine);
    // The product table's whole name: a name match at the vector factor times the cosine.
    expect(recall.match('product')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.vectorFactor * cos, 6);
    // A relative, not lexical support.
    expect(recall.matchesLexically('product', k)).toBe(false);
    // Without the rule, or with the singular spelling, the singular vectors alone do not reach it.
    const none = recallOf('Which goods cost more than 10?', 0);
    expect(none.match('product')?.[termIndex(none, 'good')] ?? 0).toBe(0);
    const singular = recallOf('Which good costs more than 10?', 1);
    expect(singular.match('product')?.[termIndex(singular, 'good')] ?? 0).toBe(0);
  });
});

describe('question recall: names with numbers', () => {
  it('a word written with a number ("covid19", `address_line1`) is a word of the question and of the lake, a file hash is not', () => {
    const lakeWithNumbers = snapshotOf(
      [
        table('covid19_cases_3fa9c2e1', ['region', 'reported_on', 'cases']),
        table('flu_cases_9b1d0e47', ['region', 'reported_on', 'cases']),
        table('customer_5c7e2a90', ['customer_id', 'address_line1', 'city']),
      ],
      [],
    );
    const recall = recallOn(lakeWithNumbers, 'How many covid19 cases were reported per region?');
    const k = termIndex(recall, 'covid');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('covid19_cases_3fa9c2e1')![k]).toBeGreaterThan(0);
    expect(recall.match('flu_cases_9b1d0e47')?.[k] ?? 0).toBe(0);
    expect(recall.ranked()[0]).toBe('covid19_cases_3fa9c2e1');
    const line = recallOn(lakeWithNumbers, 'Which customers have no second address line?');
    expect(line.match('customer_5c7e2a90')![termIndex(line, 'line')]).toBeGreaterThan(0);
  });

  it('the number of a name is no word a synonym names (WordNet\'s "2" for two does not reach a `Code2` column)', () => {
    const lakeWithCodes = snapshotOf([table('country_6b1d0e47', ['code', 'code2', 'name']), table('language_0c9e2d31', ['country_code', 'language'])], []);
    const recall = recallOn(lakeWithCodes, 'Which countries speak two languages?');
    expect(termIndex(recall, 'two')).toBe(-1);
    expect(recall.ranked()[0]).toBe('language_0c9e2d31');
  });
});

describe('question recall: cell values', () => {
  /** A members table whose first and last names are separate columns, and a clubs table. */
  function memberLake() {
    const members = table('member', ['member_id', 'first_name', 'last_name']);
    members.columns[1]!.topValues = ['Linda', 'Tracy'];
    members.columns[2]!.topValues = ['Smith', 'Kumar'];
    const clubs = table('club', ['club_id', 'club_name']);
    clubs.columns[1]!.topValues = ['Bootup Baltimore', 'Hopkins Student Enterprises'];
    return snapshotOf([members, clubs], []);
  }
  const memberRecall = (question: string) => recallOn(memberLake(), question);

  it('a quoted string that no cell holds whole is looked up word by word ("Linda Smith": a first and a last name)', () => {
    const recall = memberRecall('How many clubs does "Linda Smith" belong to?');
    for (const word of ['linda', 'smith']) {
      const k = termIndex(recall, word);
      expect(k, word).toBeGreaterThanOrEqual(0);
      expect(recall.match('member')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.valueMatch, 6);
      expect(recall.matchesLexically('member', k)).toBe(true);
    }
  });

  it('a quoted string a cell holds whole is that cell, its words not looked up apart', () => {
    const recall = memberRecall('Who are the members of "Hopkins Student Enterprises"?');
    const k = termIndex(recall, 'enterprise');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('club')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.valueMatch, 6);
    expect(recall.match('member')?.[k] ?? 0).toBe(0);
  });
});

/** Heroes whose attributes are rows of a key-value table: `attribute_name` holds Intelligence, Speed, Strength. */
function heroLake() {
  const attributes = table('attribute', ['attribute_id', 'attribute_name']);
  attributes.columns[1]!.topValues = ['Intelligence', 'Strength', 'Speed', 'Durability'];
  return snapshotOf([table('superhero', ['superhero_id', 'superhero_name']), table('hero_attribute', ['hero_id', 'attribute_id', 'attribute_value']), attributes], []);
}

describe('question recall: cells that name what a word measures', () => {
  it('a noun of the word\'s family that a cell holds supports the word in that table ("fastest" -> fast -> Speed), as a relative', () => {
    const recall = recallOn(heroLake(), 'Count the fastest superheroes.');
    const k = termIndex(recall, 'fastest');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('attribute')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.valueMatch * DEFAULT_RECALL_OPTIONS.derivedFactor, 6);
    expect(recall.matchesLexically('attribute', k)).toBe(false);
    expect(recall.match('hero_attribute')?.[k] ?? 0).toBe(0);
    // Without the family factor no table holds what "fastest" measures.
    expect(termIndex(recallOn(heroLake(), 'Count the fastest superheroes.', { derivedFactor: 0 }), 'fastest')).toBe(-1);
  });

  it('a word the question asks for itself is no such noun ("strong heroes and their strength": strength is asked)', () => {
    const recall = recallOn(heroLake(), 'Which strong heroes have the most strength?');
    const k = termIndex(recall, 'strong');
    expect(k === -1 || (recall.match('attribute')?.[k] ?? 0) === 0).toBe(true);
    expect(recall.match('attribute')![termIndex(recall, 'strength')]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.valueMatch, 6);
  });
});

describe('question recall: abbreviations', () => {
  function collegeLake() {
    return snapshotOf(
      [
        table('OFFERING', ['OFFERING_CODE', 'CRS_CODE', 'PROF_NUM', 'ROOM']),
        table('DEPARTMENT', ['DEPT_CODE', 'DEPT_NAME']),
        table('college', ['cName', 'state', 'enr']),
        table('pet', ['pet_id', 'cat', 'weight']),
      ],
      [],
    );
  }
  const collegeRecall = (question: string, partial: Partial<RecallOptions> = {}) => recallOn(collegeLake(), question, partial);
  const asColumn = DEFAULT_RECALL_OPTIONS.abbreviationFactor * DEFAULT_RECALL_OPTIONS.columnMatch;

  it('a question word meets the lake word a schema shortened it to (course ~ CRS_CODE, enrollment ~ enr)', () => {
    const recall = collegeRecall('Which rooms hold a course of the department with the largest enrollment?');
    expect(recall.match('OFFERING')![termIndex(recall, 'course')]).toBeCloseTo(asColumn, 6);
    expect(recall.match('college')![termIndex(recall, 'enrollment')]).toBeCloseTo(asColumn, 6);
    // The word itself still wins where a table is named by it.
    expect(recall.match('DEPARTMENT')![termIndex(recall, 'department')]).toBe(1);
    expect(recall.matchesLexically('OFFERING', termIndex(recall, 'course'))).toBe(true);
    const without = collegeRecall('Which rooms hold a course of the department with the largest enrollment?', { abbreviationFactor: 0 });
    expect(termIndex(without, 'course')).toBe(-1);
  });

  it('an English noun is no abbreviation (cat is not category), nor a short word of more than 60% of the word', () => {
    const index = LexicalIndex.of(collegeLake());
    const isNoun = (w: string) => ['cat', 'room'].includes(w);
    expect(index.abbreviations('category', isNoun)).toEqual([]);
    expect(index.abbreviations('department', isNoun)).toEqual(['dept']);
    // crs is in cars in order, but three of its four letters are no abbreviation.
    expect(index.abbreviations('cars', isNoun)).toEqual([]);
    expect(index.abbreviations('course', isNoun)).toEqual(['crs']);
    const recall = collegeRecall('Which category has the most pets?');
    expect(recall.match('pet')![termIndex(recall, 'pet')]).toBe(1);
    expect(termIndex(recall, 'category')).toBe(-1);
  });
});

describe("question recall: the question's other words stand for themselves", () => {
  it('a word-vector neighbour that the question also asks for is no stand-in ("teachers who advise students": student is no teacher), nor are the word\'s other relatives then', () => {
    // Hand-made 3-d vectors: teacher and student close (GloVe: 0.8), faculty close to teacher,
    // advisor far from all.
    const q = (x: number, y: number, z: number) => [x, y, z].map((v) => Math.round(v * 127));
    const vectors = new WordVectors(
      ['teacher', 'student', 'faculty', 'advisor'],
      3,
      Int8Array.from([...q(1, 0, 0), ...q(0.8, 0.6, 0), ...q(0.75, -0.66, 0), ...q(0, 0, 1)]),
    );
    const school = () =>
      snapshotOf([table('student', ['student_id', 'name']), table('advisor', ['student_id', 'teacher_id']), table('faculty', ['faculty_id', 'rank'])], []);
    const recallOf = (question: string) => recallOn(school(), question, { synonyms: false, wordVectors: vectors });
    expect(vectors.cosine('teacher', 'student')!).toBeGreaterThan(DEFAULT_RECALL_OPTIONS.vectorMinCosine);

    // Asked alone, "teacher" still reaches the student and faculty tables through the vectors, as relatives.
    const alone = recallOf('Which teachers give classes?');
    expect(alone.match('student')![termIndex(alone, 'teacher')]).toBeGreaterThan(0);
    expect(alone.match('faculty')![termIndex(alone, 'teacher')]).toBeGreaterThan(0);
    // Asked beside "student", the student table matches "student" only.
    const both = recallOf('Which teachers advise a student?');
    expect(both.match('student')![termIndex(both, 'student')]).toBe(1);
    expect(both.match('student')![termIndex(both, 'teacher')]).toBe(0);
    // Related to another word of the question, "teacher" keeps no relative: the faculty table is out.
    expect(both.match('faculty')).toBeUndefined();
    // The advisor table's own column still matches "teacher" (its word, not a stand-in).
    expect(both.match('advisor')![termIndex(both, 'teacher')]).toBeGreaterThan(0);
  });

  it('so is a WordNet synonym the question also asks for ("teachers and instructors": the instructor table is no teacher)', () => {
    const alone = recallOf('How many teachers are there?');
    expect(alone.match('instructor')![termIndex(alone, 'teacher')]).toBe(DEFAULT_RECALL_OPTIONS.synonymFactor);
    const both = recallOf('How many teachers and instructors are there?');
    expect(both.match('instructor')![termIndex(both, 'teacher')]).toBe(0);
    expect(both.match('instructor')![termIndex(both, 'instructor')]).toBe(1);
    expect(both.match('teacher')![termIndex(both, 'teacher')]).toBe(1);
  });
});

describe('question recall: misspelt words', () => {
  const allergyLake = () => snapshotOf([table('student', ['student_id', 'name']), table('allergy', ['allergy', 'allergy_type'])], []);
  const misspelt = DEFAULT_RECALL_OPTIONS.misspellingFactor;

  it('a word no lake word or cell stands for meets the cell one typing slip away ("intellegence" -> Intelligence), as the word itself', () => {
    const recall = recallOn(heroLake(), 'Which superheroes have the most intellegence?');
    const k = termIndex(recall, 'intellegence');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('attribute')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.valueMatch * misspelt, 6);
    expect(recall.matchesLexically('attribute', k)).toBe(true);
    expect(recall.match('superhero')?.[k] ?? 0).toBe(0);
    expect(termIndex(recallOn(heroLake(), 'Which superheroes have the most intellegence?', { misspellingFactor: 0 }), 'intellegence')).toBe(-1);
  });

  it('and the lake word two swapped letters away ("allegry" -> the allergy table)', () => {
    const recall = recallOn(allergyLake(), 'Which allegry is the most common?');
    const k = termIndex(recall, 'allegry');
    expect(recall.match('allergy')![k]).toBeGreaterThan(0);
    expect(recall.matchesLexically('allergy', k)).toBe(true);
    expect(recall.match('allergy')![k]).toBeLessThanOrEqual(misspelt);
    expect(termIndex(recallOn(allergyLake(), 'Which allegry is the most common?', { misspellingFactor: 0 }), 'allegry')).toBe(-1);
  });

  it('a word the word vectors know is no misspelling ("demons" is not demo), nor is a short one', () => {
    const lake = () => snapshotOf([table('demo', ['demo_id', 'title'])], []);
    const q = (x: number, y: number, z: number) => [x, y, z].map((v) => Math.round(v * 127));
    const vectors = new WordVectors(['demons', 'demon', 'demo'], 3, Int8Array.from([...q(1, 0, 0), ...q(1, 0, 0), ...q(0, 0, 1)]));
    const unknown = recallOn(lake(), 'Which demons appear?', { synonyms: false });
    expect(unknown.match('demo')![termIndex(unknown, 'demon')]).toBeGreaterThan(0);
    const known = recallOn(lake(), 'Which demons appear?', { synonyms: false, wordVectors: vectors });
    expect(known.match('demo')?.[termIndex(known, 'demon')] ?? 0).toBe(0);
    // "demon" is five letters, the shortest read as misspelt by default.
    const short = recallOn(lake(), 'Which demons appear?', { synonyms: false, misspellingMinLength: 6 });
    expect(short.match('demo')?.[termIndex(short, 'demon')] ?? 0).toBe(0);
  });
});
