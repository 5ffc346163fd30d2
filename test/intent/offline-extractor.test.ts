import { describe, expect, it } from 'vitest';
import {
  type IntentGraph,
  InMemoryVocabulary,
  OfflineExtractor,
  extractIntentOffline,
  intentAtoms,
  parseIntentGraph,
} from '../../src/intent/index.js';
import { ruleLemmatiser, valueHash } from '../../src/text/index.js';
import { schoolLake } from './fixtures/school-lake.js';

const extractor = new OfflineExtractor(schoolLake());

function tree(graph: IntentGraph, tableId: string) {
  const t = graph.trees.find((x) => x.entity.grounding?.[0]?.tableId === tableId);
  if (!t) throw new Error(`no tree grounded to ${tableId}: ${JSON.stringify(graph.trees.map((x) => x.entity))}`);
  return t;
}

function attribute(graph: IntentGraph, tableId: string, columnId: string) {
  const a = tree(graph, tableId).attributes.find((x) => x.grounding?.some((g) => g.columnId === columnId));
  if (!a) throw new Error(`no attribute grounded to ${tableId}.${columnId}`);
  return a;
}

describe('OfflineExtractor', () => {
  it('puts a quoted string in a value leaf on the column whose values hold it', () => {
    const { graph, warnings } = extractor.extract("Which games were played against 'Shelbourne'?");
    const opponent = attribute(graph, 'league.games', 'opponent');
    expect(opponent.value).toMatchObject({ operator: '=', literal: 'Shelbourne' });
    expect(opponent.value!.grounding).toEqual([{ tableId: 'league.games', columnId: 'opponent', kind: 'value', score: 0.9 }]);
    expect(warnings).toEqual([]);
  });

  it('turns a quoted string after "the word" into a like pattern on the nearby attribute', () => {
    const { graph } = extractor.extract("Find courses with the word 'Data' in their title");
    expect(attribute(graph, 'school.courses', 'title').value).toMatchObject({ operator: 'like', literal: '%Data%' });
  });

  it('attaches a number to the attribute right before it, with the comparison operator', () => {
    const { graph } = extractor.extract('Which students in the Computer Science department have GPA above 3.5?');
    expect(attribute(graph, 'school.students', 'gpa').value).toMatchObject({ operator: '>', literal: 3.5 });
    // "Computer Science" is a department name from the value index, not two loose words.
    expect(attribute(graph, 'school.departments', 'department_name').value).toMatchObject({
      operator: '=',
      literal: 'Computer Science',
    });
    expect(graph.edges).toHaveLength(1);
  });

  it('puts a year on a year-like column of the entity when no attribute is named', () => {
    const { graph } = extractor.extract('Which students enrolled after 2019?');
    const year = tree(graph, 'school.students').attributes.find((a) => a.value);
    expect(year?.grounding?.[0]).toMatchObject({ tableId: 'school.students', columnId: 'enrollment_year' });
    expect(year?.value).toMatchObject({ operator: '>', literal: 2019 });
  });

  it('puts a number on the column named by the verb next to it, else on a numeric column', () => {
    const founded = extractor.extract('Which clubs were founded in 1950?').graph;
    expect(attribute(founded, 'league.clubs', 'founded_year').value).toMatchObject({ operator: '=', literal: 1950 });
    const older = extractor.extract('How many players are older than 30?').graph;
    expect(attribute(older, 'league.players', 'age').value).toMatchObject({ operator: '>', literal: 30 });
  });

  it('works the same with the rule lemmatiser (the fallback when wink cannot load)', () => {
    const rules = new OfflineExtractor(schoolLake(), { lemmatiser: ruleLemmatiser() });
    const { graph } = rules.extract('What scores did players of club AIB get in games?');
    expect(graph.trees.map((t) => t.entity.grounding![0].tableId)).toEqual(['league.players', 'league.clubs', 'league.games']);
    expect(attribute(graph, 'league.clubs', 'club_name').value).toMatchObject({ literal: 'AIB' });
  });

  it('reads "between X and Y" as one between leaf', () => {
    const { graph } = extractor.extract('Show the first name and last name of students who enrolled between 2015 and 2018');
    const students = tree(graph, 'school.students');
    expect(students.attributes.map((a) => a.grounding?.[0]?.columnId)).toEqual(['first_name', 'last_name', 'enrollment_year']);
    expect(students.attributes[2].value).toMatchObject({ operator: 'between', literal: [2015, 2018] });
  });

  it('labels a value with no matching column by the nearest noun, and warns', () => {
    const { graph, warnings } = extractor.extract('Which clubs have a rank of 5?');
    const clubs = tree(graph, 'league.clubs');
    const rank = clubs.attributes.find((a) => a.label === 'rank');
    expect(rank?.value).toMatchObject({ operator: '=', literal: 5 });
    expect(rank?.grounding).toBeUndefined();
    expect(warnings.join(' ')).toContain("value '5' matched no column");
  });

  it('matches a WordNet synonym to a table name ("pupils" -> students)', () => {
    const { graph, matches } = extractor.extract('List the pupils with a GPA below 2');
    const students = tree(graph, 'school.students');
    expect(students.entity.label).toBe('pupil');
    expect(students.entity.grounding![0]).toMatchObject({ tableId: 'school.students', kind: 'synonym' });
    expect(students.entity.grounding![0].score).toBeLessThan(1);
    expect(attribute(graph, 'school.students', 'gpa').value).toMatchObject({ operator: '<', literal: 2 });
    expect(matches.find((m) => m.text === 'pupils')?.role).toBe('entity');
  });

  it('does not use synonyms when told not to', () => {
    const plain = new OfflineExtractor(schoolLake(), { synonyms: false });
    const { graph, warnings } = plain.extract('List the pupils');
    expect(graph.trees[0].entity.grounding).toBeUndefined();
    expect(warnings.join(' ')).toContain('no catalog table matched');
  });

  it('finds an unquoted value in the value index ("AIB" -> club name) and chains entities in question order', () => {
    const { graph, matches } = extractor.extract('What scores did players of club AIB get in games?');
    expect(graph.trees.map((t) => t.entity.grounding![0].tableId)).toEqual(['league.players', 'league.clubs', 'league.games']);
    const clubName = attribute(graph, 'league.clubs', 'club_name');
    expect(clubName.value).toMatchObject({ operator: '=', literal: 'AIB' });
    expect(clubName.grounding![0].kind).toBe('value');
    expect(attribute(graph, 'league.games', 'score').value).toBeUndefined();
    const ids = graph.trees.map((t) => t.entity.id);
    expect(graph.edges.map((e) => [e.from, e.to])).toEqual([
      [ids[0], ids[1]],
      [ids[1], ids[2]],
    ]);
    expect(matches.find((m) => m.text === 'AIB')).toMatchObject({ role: 'value' });
    // "players of club" is two entities, not the player_club map table read across "of".
    expect(graph.trees.some((t) => t.entity.grounding?.[0].tableId === 'league.player_club')).toBe(false);
  });

  it('links attributes to the entity whose table holds them', () => {
    const { graph } = extractor.extract('List the names of players and the clubs they play for');
    expect(attribute(graph, 'league.players', 'name').label).toBe('name');
    expect(tree(graph, 'league.clubs').attributes).toEqual([]);
    expect(graph.edges).toEqual([{ id: `${graph.trees[0].entity.id}--${graph.trees[1].entity.id}`, from: graph.trees[0].entity.id, to: graph.trees[1].entity.id }]);
  });

  it('implies the entity of a column when the question names no table', () => {
    const { graph } = extractor.extract('What is the average GPA?');
    expect(graph.trees).toHaveLength(1);
    expect(graph.trees[0].entity.grounding![0]).toMatchObject({ tableId: 'school.students', kind: 'column-name' });
    expect(graph.trees[0].attributes[0].grounding![0]).toMatchObject({ columnId: 'gpa' });
  });

  it('reads a column name as "<table> <column>" and in either word order', () => {
    const { graph } = extractor.extract('Show the name of each club founded before 1950');
    const name = attribute(graph, 'league.clubs', 'club_name');
    expect(name.grounding![0].score).toBeLessThan(1); // matched as club_name minus its table name
    expect(attribute(graph, 'league.clubs', 'founded_year').value).toMatchObject({ operator: '<', literal: 1950 });
  });

  it('produces graphs that validate and atoms for every node', () => {
    const { graph } = extractor.extract('What scores did players of club AIB get in games?');
    expect(parseIntentGraph(graph)).toEqual(graph);
    const kinds = intentAtoms(graph).map((a) => a.kind);
    expect(kinds).toEqual(expect.arrayContaining(['entity', 'attribute', 'value', 'relation']));
  });

  it('is deterministic', () => {
    const questions = [
      'What scores did players of club AIB get in games?',
      'Which pupils in the History of Art department enrolled after 2019?',
      "List courses containing 'Algebra' with more than 5 credits",
    ];
    const a = questions.map((q) => extractor.extract(q));
    const b = questions.map((q) => new OfflineExtractor(schoolLake()).extract(q));
    expect(b).toEqual(a);
    expect(JSON.stringify(a)).toBe(JSON.stringify(questions.map((q) => extractor.extract(q))));
  });

  it('keeps the top few tables when a name is shared by many tables', () => {
    const tables = Array.from({ length: 12 }, (_, i) => ({
      id: `db${String(i).padStart(2, '0')}.students`,
      name: 'students',
      columns: [{ id: 'age', name: 'age', logicalType: 'integer' }],
    }));
    tables.push({ id: 'db99.students', name: 'students', columns: [{ id: 'gpa', name: 'gpa', logicalType: 'double' }] });
    const lake = new OfflineExtractor(new InMemoryVocabulary(tables), { maxGroundings: 3 });
    const ambiguous = lake.extract('How many students are there?');
    expect(ambiguous.graph.trees[0].entity.grounding!.map((g) => g.tableId)).toEqual(['db00.students', 'db01.students', 'db02.students']);
    expect(ambiguous.warnings.join(' ')).toMatch(/'student' is ambiguous: 13 tables match; kept the top 3/);
    // The question's attribute decides between same-named tables.
    const resolved = lake.extract('What is the GPA of students?');
    expect(resolved.graph.trees[0].entity.grounding![0].tableId).toBe('db99.students');
    expect(resolved.graph.trees[0].attributes[0].grounding).toEqual([
      { tableId: 'db99.students', columnId: 'gpa', kind: 'column-name', score: 1 },
    ]);
  });

  it('reads "number of X" as an aggregate over X, not as a column called number', () => {
    const lake = new OfflineExtractor(
      new InMemoryVocabulary([
        { id: 'a.concert', name: 'concert', columns: [{ id: 'theme', name: 'theme', logicalType: 'text' }] },
        { id: 'b.results', name: 'results', columns: [{ id: 'number', name: 'number', logicalType: 'integer' }] },
        { id: 'c.company', name: 'company', columns: [{ id: 'number_of_employees', name: 'number_of_employees', logicalType: 'integer' }] },
      ]),
    );
    const grounded = (q: string) => intentAtoms(lake.extract(q).graph).flatMap((a) => a.grounding.map((g) => g.tableId));
    expect(grounded('What is the number of concerts?')).not.toContain('b.results');
    expect(grounded('What is the number of concerts?')).toContain('a.concert');
    // A column whose name takes the noun too is still a name.
    expect(grounded('Which company has the largest number of employees?')).toContain('c.company');
    // "number" without "of" can still name a column.
    expect(grounded('Which results have number 7?')).toContain('b.results');
  });

  it('never throws on no match: one entity named by the main noun phrase plus a warning', () => {
    const { graph, warnings } = extractor.extract('How many unicorns live in Narnia?');
    expect(graph.trees).toEqual([{ entity: { id: 'unicorn', label: 'unicorn' }, attributes: [] }]);
    expect(graph.edges).toEqual([]);
    expect(warnings).toEqual(["no catalog table matched the question; using its main noun phrase 'unicorn' as the only entity"]);
  });

  it('handles an empty vocabulary and an empty question', () => {
    const empty = new OfflineExtractor(new InMemoryVocabulary([]));
    const r = empty.extract("Which students scored above 90 in 'Algebra'?");
    expect(r.graph.trees).toHaveLength(1);
    expect(r.graph.trees[0].entity.label).toBe('student');
    expect(r.graph.trees[0].attributes.map((a) => a.value?.literal)).toEqual(expect.arrayContaining([90, 'Algebra']));
    expect(r.warnings.join(' ')).toContain('no catalog table matched');
    const blank = empty.extract('   ');
    expect(blank.graph.trees[0].entity.label).toBe('question');
    expect(blank.warnings).toEqual(['empty question: no entity to extract']);
  });

  it('caches one extractor per vocabulary in the one-shot form', () => {
    const vocab = schoolLake();
    const first = extractIntentOffline('How many players are there?', vocab);
    expect(first.graph.trees[0].entity.grounding![0].tableId).toBe('league.players');
    expect(extractIntentOffline('How many players are there?', vocab)).toEqual(first);
  });

  it('grounds an ungrounded graph (as an LLM returns) against the vocabulary', () => {
    const grounded = extractor.ground({
      version: 1,
      trees: [
        {
          entity: { id: 'club', label: 'club' },
          attributes: [{ id: 'club.name', label: 'name', value: { id: 'club.name.v', operator: '=', literal: 'AIB' } }],
        },
        { entity: { id: 'pupil', label: 'pupil' }, attributes: [{ id: 'pupil.gpa', label: 'GPA' }] },
      ],
      edges: [{ id: 'r', from: 'club', to: 'pupil' }],
    });
    expect(grounded.trees[0].entity.grounding![0]).toMatchObject({ tableId: 'league.clubs', kind: 'table-name' });
    expect(grounded.trees[0].attributes[0].grounding![0]).toMatchObject({ tableId: 'league.clubs', columnId: 'club_name' });
    expect(grounded.trees[0].attributes[0].value!.grounding).toEqual([
      { tableId: 'league.clubs', columnId: 'club_name', kind: 'value', score: 0.9 },
    ]);
    expect(grounded.trees[1].entity.grounding![0]).toMatchObject({ tableId: 'school.students', kind: 'synonym' });
    expect(grounded.trees[1].attributes[0].grounding![0]).toMatchObject({ columnId: 'gpa' });
    expect(parseIntentGraph(grounded)).toEqual(grounded);
  });

  it("grounds a graph's value literal among a column's hashed values too, not only its top values", () => {
    const heroes = new InMemoryVocabulary([
      {
        id: 'heroes.superhero',
        name: 'superhero',
        columns: [{ id: 'superhero_name', name: 'superhero_name', logicalType: 'text', values: ['Batman'], valueHashes: [valueHash('Hunter Zolomon')!] }],
      },
    ]);
    const grounded = new OfflineExtractor(heroes).ground({
      version: 1,
      trees: [
        {
          entity: { id: 'hero', label: 'superhero' },
          attributes: [{ id: 'hero.name', label: 'superhero name', value: { id: 'hero.name.v', operator: '=', literal: 'hunter zolomon' } }],
        },
      ],
      edges: [],
    });
    expect(grounded.trees[0].attributes[0].value!.grounding).toEqual([{ tableId: 'heroes.superhero', columnId: 'superhero_name', kind: 'value', score: 0.9 }]);
  });
});
