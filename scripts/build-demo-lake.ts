/**
 * Builds the demo lake: a small lake with real join and union structure (see demo/README.md).
 *
 *   npx tsx scripts/build-demo-lake.ts [--out <dir>]   copy demo/lake-src into <dir> (default
 *                                                      .graft/demo-lake), converting some tables
 *                                                      to Parquet so the lake mixes formats
 *   npx tsx scripts/build-demo-lake.ts --regen         rewrite demo/lake-src/*.csv from the seeded
 *                                                      generator below (the CSVs are the committed
 *                                                      fixture; this only exists for reproducibility)
 *   npx tsx scripts/build-demo-lake.ts --gold          recompute demo/lake-gold.json: expected row
 *                                                      counts come from running each reference SQL
 *                                                      in DuckDB over the built lake (and the CSVs)
 *
 * Parquet files are generated, never committed: they only ever land in the output folder.
 */
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../src/util/prng.js';
import { projectPath } from '../src/util/projectRoot.js';

export const DEMO_ROOT = projectPath('demo');
export const DEMO_LAKE_SRC = path.join(DEMO_ROOT, 'lake-src');
export const DEMO_LAKE_GOLD = path.join(DEMO_ROOT, 'lake-gold.json');
export const DEFAULT_DEMO_LAKE_OUT = '.graft/demo-lake';

/** Tables (file stems) that the built lake serves as Parquet instead of CSV. */
export const DEMO_PARQUET_TABLES: readonly string[] = [
  'game_results_2021',
  'game_results_2022',
  'game_results_2023',
  'student',
];

const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * Copies demo/lake-src into `outDir` and converts DEMO_PARQUET_TABLES to Parquet (the CSV of a
 * converted table is not copied, so every table appears exactly once). Idempotent: any earlier
 * `<stem>.csv` / `<stem>.parquet` of a demo table in `outDir` is replaced; other files are left alone.
 * Returns the absolute paths of the files written, sorted.
 */
export async function buildDemoLake(outDir: string = DEFAULT_DEMO_LAKE_OUT): Promise<string[]> {
  const out = path.resolve(outDir);
  await mkdir(out, { recursive: true });
  const stems = (await readdir(DEMO_LAKE_SRC))
    .filter((f) => f.endsWith('.csv'))
    .map((f) => f.slice(0, -'.csv'.length))
    .sort();
  for (const stem of stems) {
    await rm(path.join(out, `${stem}.csv`), { force: true });
    await rm(path.join(out, `${stem}.parquet`), { force: true });
  }

  const written: string[] = [];
  const toParquet = stems.filter((s) => DEMO_PARQUET_TABLES.includes(s));
  for (const stem of stems) {
    if (toParquet.includes(stem)) continue;
    const dest = path.join(out, `${stem}.csv`);
    await copyFile(path.join(DEMO_LAKE_SRC, `${stem}.csv`), dest);
    written.push(dest);
  }

  if (toParquet.length > 0) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    try {
      for (const stem of toParquet) {
        const src = path.join(DEMO_LAKE_SRC, `${stem}.csv`);
        const dest = path.join(out, `${stem}.parquet`);
        await con.run(
          `COPY (SELECT * FROM read_csv(${sqlString(src)}, auto_detect=true, header=true)) ` +
            `TO ${sqlString(dest)} (FORMAT parquet)`,
        );
        written.push(dest);
      }
    } finally {
      con.closeSync();
      inst.closeSync();
    }
  }
  return written.sort();
}

// ---------------------------------------------------------------------------------------------
// Deterministic generator for demo/lake-src (run with --regen).
// ---------------------------------------------------------------------------------------------


type Row = Record<string, string | number>;

function toCsv(columns: string[], rows: Row[]): string {
  const cell = (v: string | number): string => {
    const s = String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c]!)).join(','))].join('\n') + '\n';
}

const FIRST_NAMES = [
  'Aaron', 'Adele', 'Ahmed', 'Alba', 'Anders', 'Ana', 'Ben', 'Bianca', 'Carlos', 'Chloe',
  'Daniel', 'Dana', 'Elias', 'Emma', 'Felix', 'Freya', 'Gabriel', 'Greta', 'Hugo', 'Hana',
  'Ivan', 'Ines', 'Jonas', 'Julia', 'Kenji', 'Karin', 'Leo', 'Lena', 'Marco', 'Maya',
  'Nils', 'Nora', 'Omar', 'Olga', 'Pavel', 'Paula', 'Rafael', 'Rosa', 'Sami', 'Sofia',
  'Tomas', 'Tara', 'Umar', 'Vera', 'Viktor', 'Wanda', 'Yusuf', 'Zoe',
];
const LAST_NAMES = [
  'Andersen', 'Berg', 'Costa', 'Dahl', 'Eriksen', 'Fischer', 'Garcia', 'Hansen', 'Ivanova', 'Jensen',
  'Kowalski', 'Larsen', 'Moreau', 'Nielsen', 'Okafor', 'Petersen', 'Quinn', 'Rossi', 'Schmidt', 'Tanaka',
  'Urban', 'Vidal', 'Weber', 'Xu', 'Yilmaz', 'Zimmermann', 'Novak', 'Lindqvist', 'Haddad', 'Kim',
  'Silva', 'Murphy', 'Horvat', 'Sato', 'Bauer', 'Keller', 'Mendes', 'Olsen', 'Popescu', 'Ruiz',
];
const NATIONALITIES = [
  'Denmark', 'Denmark', 'Denmark', 'Sweden', 'Norway', 'Germany', 'Spain', 'France', 'Croatia',
  'Serbia', 'Lithuania', 'USA', 'Nigeria', 'Brazil', 'Japan', 'Poland',
];

const CLUBS: Array<[string, string, number]> = [
  ['Aalborg Vikings', 'Aalborg', 1962],
  ['Northgate Rovers', 'Copenhagen', 1948],
  ['AIB', 'Aarhus', 1931],
  ['Riverside United', 'Odense', 1975],
  ['Harbour Hawks', 'Esbjerg', 1989],
  ['Fjord City Giants', 'Vejle', 1957],
  ['Old Town Lions', 'Roskilde', 1926],
  ['Sundby Stars', 'Copenhagen', 2001],
  ['Lakeside Falcons', 'Silkeborg', 1969],
  ['Randers Cimbria', 'Randers', 1934],
  ['Horsens Wolves', 'Horsens', 1983],
  ['Bakken Bears', 'Svendborg', 1994],
];

const DEPARTMENTS: Array<[string, string, string]> = [
  ['CS', 'Computer Science', 'Turing Hall'],
  ['MATH', 'Mathematics', 'Noether Building'],
  ['PHYS', 'Physics', 'Bohr Building'],
  ['CHEM', 'Chemistry', 'Curie Labs'],
  ['BIO', 'Biology', 'Darwin House'],
  ['ECON', 'Economics', 'Keynes Hall'],
  ['HIST', 'History', 'Herodotus Hall'],
  ['ENG', 'English Literature', 'Austen Building'],
];

const COURSES: Array<[string, string, string, number]> = [
  ['CS101', 'Introduction to Programming', 'CS', 5],
  ['CS201', 'Data Structures', 'CS', 5],
  ['CS220', 'Computer Architecture', 'CS', 5],
  ['CS310', 'Databases', 'CS', 5],
  ['CS350', 'Machine Learning', 'CS', 10],
  ['CS410', 'Distributed Systems', 'CS', 10],
  ['MATH101', 'Calculus I', 'MATH', 5],
  ['MATH102', 'Calculus II', 'MATH', 5],
  ['MATH120', 'Linear Algebra', 'MATH', 5],
  ['MATH210', 'Probability Theory', 'MATH', 10],
  ['MATH330', 'Numerical Analysis', 'MATH', 10],
  ['PHYS101', 'Classical Mechanics', 'PHYS', 5],
  ['PHYS150', 'Electromagnetism', 'PHYS', 5],
  ['PHYS230', 'Quantum Mechanics', 'PHYS', 10],
  ['PHYS310', 'Statistical Physics', 'PHYS', 10],
  ['PHYS320', 'Astrophysics', 'PHYS', 5],
  ['CHEM101', 'General Chemistry', 'CHEM', 5],
  ['CHEM205', 'Organic Chemistry', 'CHEM', 10],
  ['CHEM230', 'Physical Chemistry', 'CHEM', 5],
  ['CHEM340', 'Analytical Chemistry', 'CHEM', 5],
  ['CHEM360', 'Biochemistry', 'CHEM', 10],
  ['BIO101', 'Cell Biology', 'BIO', 5],
  ['BIO140', 'Genetics', 'BIO', 5],
  ['BIO220', 'Ecology', 'BIO', 5],
  ['BIO260', 'Microbiology', 'BIO', 10],
  ['BIO330', 'Evolutionary Biology', 'BIO', 10],
  ['ECON101', 'Microeconomics', 'ECON', 5],
  ['ECON102', 'Macroeconomics', 'ECON', 5],
  ['ECON210', 'Econometrics', 'ECON', 10],
  ['ECON250', 'Game Theory', 'ECON', 5],
  ['ECON320', 'Labour Economics', 'ECON', 5],
  ['HIST101', 'Ancient Civilisations', 'HIST', 5],
  ['HIST120', 'Medieval Europe', 'HIST', 5],
  ['HIST240', 'The Industrial Revolution', 'HIST', 5],
  ['HIST300', 'Twentieth Century History', 'HIST', 10],
  ['HIST330', 'History of Science', 'HIST', 5],
  ['ENG101', 'Introduction to Literary Studies', 'ENG', 5],
  ['ENG160', 'Shakespeare', 'ENG', 5],
  ['ENG230', 'The Victorian Novel', 'ENG', 10],
  ['ENG310', 'Modernist Poetry', 'ENG', 5],
];

const GRADES = ['A', 'A', 'A-', 'B+', 'B', 'B', 'B-', 'C+', 'C', 'C-', 'D', 'F'];

const SKU_WORDS = ['BOLT', 'NUT', 'WASH', 'PIPE', 'VALV', 'HOSE', 'CLMP', 'SEAL', 'GEAR', 'SPRG'];
const VENDOR_NAMES = [
  'Acme Supplies', 'Borealis Trading', 'Crown Fasteners', 'Delta Hydraulics', 'Eastwind Parts',
  'Falk & Sons', 'Granite Industrial', 'Helix Components', 'Ironside Metals', 'Juniper Logistics',
  'Kestrel Tools', 'Lumen Electrical', 'Meridian Plastics', 'Nordic Valves', 'Orion Seals',
  'Pioneer Pumps', 'Quarry Hardware', 'Redwood Fittings', 'Summit Gears', 'Tidewater Marine',
  'Union Bearings', 'Vanguard Springs', 'Westmark Piping', 'Yellowstone Supply', 'Zenith Clamps',
];
const VENDOR_COUNTRIES = ['Denmark', 'Germany', 'Sweden', 'Poland', 'Netherlands', 'China', 'USA'];

/** Generates every demo table in memory; same output on every run (fixed seeds). */
export function generateDemoTables(): Map<string, { columns: string[]; rows: Row[] }> {
  const tables = new Map<string, { columns: string[]; rows: Row[] }>();
  const rnd = mulberry32(20240611);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const pad2 = (n: number): string => String(n).padStart(2, '0');

  // Sports -------------------------------------------------------------------------------
  const club: Row[] = CLUBS.map(([club_name, city, founded], i) => ({ club_id: i + 1, club_name, city, founded }));
  tables.set('club', { columns: ['club_id', 'club_name', 'city', 'founded'], rows: club });
  // Exact copy: a redundant export somebody left in the lake.
  tables.set('club_copy', { columns: ['club_id', 'club_name', 'city', 'founded'], rows: club.map((r) => ({ ...r })) });

  const usedNames = new Set<string>();
  const uniqueName = (): string => {
    for (;;) {
      const n = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
      if (!usedNames.has(n)) {
        usedNames.add(n);
        return n;
      }
    }
  };
  const player: Row[] = [];
  for (let i = 0; i < 150; i++) {
    player.push({ player_id: 1001 + i, full_name: uniqueName(), birth_year: int(1988, 2004), nationality: pick(NATIONALITIES) });
  }
  tables.set('player', { columns: ['player_id', 'full_name', 'birth_year', 'nationality'], rows: player });

  // Bridge: each player appears exactly once (their current club and the season they signed),
  // so joins through it never fan out and gold row counts are unambiguous. Clubs get 12-13 each.
  const clubSlots: number[] = [];
  for (let i = 0; i < 150; i++) clubSlots.push((i % 12) + 1);
  for (let i = clubSlots.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [clubSlots[i], clubSlots[j]] = [clubSlots[j]!, clubSlots[i]!];
  }
  const playerClubMap: Row[] = player.map((p, i) => ({ player_id: p.player_id!, club_id: clubSlots[i]!, season: int(2017, 2023) }));
  // Stored in an order unrelated to player order, like a real link table.
  playerClubMap.sort((a, b) => Number(a.club_id) - Number(b.club_id) || Number(a.season) - Number(b.season) || Number(a.player_id) - Number(b.player_id));
  tables.set('player_club_map', { columns: ['player_id', 'club_id', 'season'], rows: playerClubMap });

  // Game results: one stat line per (game, player); 20 games x 10 players per season shard.
  for (const year of [2021, 2022, 2023]) {
    const rows: Row[] = [];
    const base = (year - 2000) * 1000; // 2021 -> 21001.., 2022 -> 22001.., disjoint ranges
    let month = 1;
    let day = 5;
    for (let g = 1; g <= 20; g++) {
      day += int(5, 12);
      if (day > 28) {
        month += 1;
        day -= 28;
      }
      if (month === 6) month = 9; // summer break
      const gameDate = `${year}-${pad2(month)}-${pad2(day)}`;
      const lineup = new Set<number>();
      while (lineup.size < 10) lineup.add(1001 + int(0, 149));
      for (const pid of [...lineup].sort((a, b) => a - b)) {
        rows.push({ game_id: base + g, player_id: pid, points: int(0, 32), assists: int(0, 11), game_date: gameDate });
      }
    }
    tables.set(`game_results_${year}`, { columns: ['game_id', 'player_id', 'points', 'assists', 'game_date'], rows });
  }

  // University ---------------------------------------------------------------------------
  tables.set('department', {
    columns: ['dept_code', 'dept_name', 'building'],
    rows: DEPARTMENTS.map(([dept_code, dept_name, building]) => ({ dept_code, dept_name, building })),
  });
  tables.set('course', {
    columns: ['course_code', 'title', 'dept_code', 'credits'],
    rows: COURSES.map(([course_code, title, dept_code, credits]) => ({ course_code, title, dept_code, credits })),
  });

  const deptWeights = ['CS', 'CS', 'CS', 'MATH', 'MATH', 'PHYS', 'CHEM', 'BIO', 'BIO', 'ECON', 'ECON', 'HIST', 'ENG'];
  const seqByYear = new Map<number, number>();
  const student: Row[] = [];
  // Student names come from the same name pools as players: realistic, and a tempting
  // (wrong) value overlap between student.name and player.full_name.
  const studentNames = new Set<string>();
  for (let i = 0; i < 300; i++) {
    const enrol_year = int(2020, 2023);
    const seq = (seqByYear.get(enrol_year) ?? 0) + 1;
    seqByYear.set(enrol_year, seq);
    let name = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
    while (studentNames.has(name)) name = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
    studentNames.add(name);
    student.push({
      student_id: enrol_year * 10000 + seq,
      name,
      dept_code: pick(deptWeights),
      gpa: (2 + rnd() * 2).toFixed(2),
      enrol_year,
    });
  }
  student.sort((a, b) => Number(a.student_id) - Number(b.student_id));
  tables.set('student', { columns: ['student_id', 'name', 'dept_code', 'gpa', 'enrol_year'], rows: student });

  const enrollment: Row[] = [];
  const taken = new Set<string>();
  const coursesOf = (dept: string): string[] => COURSES.filter((c) => c[2] === dept).map((c) => c[0]);
  while (enrollment.length < 900) {
    const s = pick(student);
    // Mostly courses of the student's own department, some electives.
    const code = rnd() < 0.75 ? pick(coursesOf(String(s.dept_code))) : pick(COURSES)[0];
    const key = `${s.student_id}|${code}`;
    if (taken.has(key)) continue;
    taken.add(key);
    const year = int(Number(s.enrol_year), 2024);
    enrollment.push({ student_id: s.student_id!, course_code: code, term: `${year}-${rnd() < 0.5 ? 'Spring' : 'Fall'}`, grade: pick(GRADES) });
  }
  enrollment.sort((a, b) => String(a.term).localeCompare(String(b.term)) || Number(a.student_id) - Number(b.student_id) || String(a.course_code).localeCompare(String(b.course_code)));
  tables.set('enrollment', { columns: ['student_id', 'course_code', 'term', 'grade'], rows: enrollment });

  // Noise ---------------------------------------------------------------------------------
  // Dense small integer ids that overlap club_id (1..12) and player_id (1001..1150) by value only.
  const weather: Row[] = [];
  for (let d = 1; d <= 365; d++) {
    const seasonal = 8 - 10 * Math.cos(((d - 15) / 365) * 2 * Math.PI);
    weather.push({ day_id: d, temp_c: (seasonal + (rnd() - 0.5) * 8).toFixed(1), rain_mm: rnd() < 0.55 ? '0.0' : (rnd() * 18).toFixed(1) });
  }
  tables.set('weather_daily', { columns: ['day_id', 'temp_c', 'rain_mm'], rows: weather });

  const inventory: Row[] = [];
  for (let id = 1; id <= 1200; id++) {
    inventory.push({ id, sku: `${pick(SKU_WORDS)}-${String(int(0, 99999)).padStart(5, '0')}`, qty: int(0, 500) });
  }
  tables.set('inventory', { columns: ['id', 'sku', 'qty'], rows: inventory });

  // Shares only generic column names: `id` (with inventory, values overlap) and `name` (with student).
  tables.set('vendor', {
    columns: ['id', 'name', 'country'],
    rows: VENDOR_NAMES.map((name, i) => ({ id: i + 1, name, country: pick(VENDOR_COUNTRIES) })),
  });

  return tables;
}

export async function regenerateDemoLakeSrc(dir: string = DEMO_LAKE_SRC): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, { columns, rows }] of generateDemoTables()) {
    const file = path.join(dir, `${name}.csv`);
    await writeFile(file, toCsv(columns, rows), 'utf8');
    written.push(file);
  }
  return written.sort();
}

// ---------------------------------------------------------------------------------------------
// Ground truth (run with --gold): labelled edges plus questions whose row counts DuckDB computes.
// ---------------------------------------------------------------------------------------------

const GAME_SHARDS = ['game_results_2021', 'game_results_2022', 'game_results_2023'];

interface GoldQuestion {
  id: string;
  question: string;
  tables: string[];
  sql: string;
  note?: string;
}

const GOLD_QUESTIONS: GoldQuestion[] = [
  {
    id: 'aib-points',
    question: 'What points did the players of club AIB score in games, by player name?',
    tables: ['club', 'player_club_map', 'player', ...GAME_SHARDS],
    sql:
      'SELECT p.full_name, g.game_id, g.game_date, g.points FROM club c ' +
      'JOIN player_club_map m ON m.club_id = c.club_id ' +
      'JOIN player p ON p.player_id = m.player_id ' +
      'JOIN (SELECT * FROM game_results_2021 UNION ALL SELECT * FROM game_results_2022 UNION ALL SELECT * FROM game_results_2023) g ' +
      "ON g.player_id = p.player_id WHERE c.club_name = 'AIB'",
    note: 'Needs the bridge (club has no player key, player has no club key) and the union of all three season shards.',
  },
  {
    id: 'aib-roster',
    question: 'Which players play for club AIB and what is their nationality?',
    tables: ['club', 'player_club_map', 'player'],
    sql:
      'SELECT p.full_name, p.nationality FROM club c ' +
      'JOIN player_club_map m ON m.club_id = c.club_id ' +
      "JOIN player p ON p.player_id = m.player_id WHERE c.club_name = 'AIB'",
    note: 'Bridge without the game shards.',
  },
  {
    id: 'cs-gpa',
    question: 'What is the GPA of students in the Computer Science department?',
    tables: ['student', 'department'],
    sql:
      'SELECT s.name, s.gpa FROM student s JOIN department d ON d.dept_code = s.dept_code ' +
      "WHERE d.dept_name = 'Computer Science'",
    note: "The value 'Computer Science' lives in department.dept_name; student only has dept_code 'CS'.",
  },
  {
    id: 'students-2021-gpa',
    question: 'Which students enrolled in 2021 and what are their GPAs?',
    tables: ['student'],
    sql: 'SELECT s.name, s.gpa FROM student s WHERE s.enrol_year = 2021',
    note: 'Single table; nothing should be joined.',
  },
  {
    id: 'linear-algebra-grades',
    question: "What grades did students get in the course 'Linear Algebra'?",
    tables: ['student', 'enrollment', 'course'],
    sql:
      'SELECT s.name, e.term, e.grade FROM course c ' +
      'JOIN enrollment e ON e.course_code = c.course_code ' +
      "JOIN student s ON s.student_id = e.student_id WHERE c.title = 'Linear Algebra'",
    note: 'enrollment is the bridge between student and course.',
  },
  {
    id: 'math-credits',
    question: 'How many credits do the courses offered by the Mathematics department carry?',
    tables: ['course', 'department'],
    sql:
      'SELECT c.title, c.credits FROM course c JOIN department d ON d.dept_code = c.dept_code ' +
      "WHERE d.dept_name = 'Mathematics'",
  },
];

function goldSkeleton(): Record<string, unknown> {
  const j = (from: string, to: string) => ({ from, to });
  return {
    description:
      'Ground truth for demo/lake-src (see demo/README.md). Table names are file stems. ' +
      'joins: foreign key -> key edges the catalog must find. acceptableJoins: true but redundant edges ' +
      '(sibling foreign keys over the same key domain, and edges to the duplicate club_copy) that are ' +
      'neither required nor wrong. unions: pairs with the same schema and meaning. nonJoins: tempting ' +
      'pairs (overlapping values or shared generic names) that must not become edges. questions: ' +
      'expectedRowCount is the row count of the reference SQL run in DuckDB over the built lake.',
    joins: [
      j('player_club_map.player_id', 'player.player_id'),
      j('player_club_map.club_id', 'club.club_id'),
      ...GAME_SHARDS.map((t) => j(`${t}.player_id`, 'player.player_id')),
      j('student.dept_code', 'department.dept_code'),
      j('course.dept_code', 'department.dept_code'),
      j('enrollment.student_id', 'student.student_id'),
      j('enrollment.course_code', 'course.course_code'),
    ],
    acceptableJoins: [
      j('player_club_map.club_id', 'club_copy.club_id'),
      j('club.club_id', 'club_copy.club_id'),
      ...GAME_SHARDS.map((t) => j(`player_club_map.player_id`, `${t}.player_id`)),
      j('game_results_2021.player_id', 'game_results_2022.player_id'),
      j('game_results_2021.player_id', 'game_results_2023.player_id'),
      j('game_results_2022.player_id', 'game_results_2023.player_id'),
      j('student.dept_code', 'course.dept_code'),
    ],
    unions: [
      ['game_results_2021', 'game_results_2022'],
      ['game_results_2021', 'game_results_2023'],
      ['game_results_2022', 'game_results_2023'],
      ['club', 'club_copy'],
    ],
    duplicates: [['club', 'club_copy']],
    nonJoins: [
      j('weather_daily.day_id', 'club.club_id'),
      j('inventory.id', 'club.club_id'),
      j('inventory.id', 'player.player_id'),
      j('player_club_map.club_id', 'weather_daily.day_id'),
      j('player_club_map.player_id', 'inventory.id'),
      j('vendor.id', 'inventory.id'),
      j('vendor.id', 'club.club_id'),
      j('vendor.name', 'student.name'),
      j('student.name', 'player.full_name'),
      j('player.birth_year', 'club.founded'),
      j('student.enrol_year', 'player_club_map.season'),
    ],
    nonUnions: [
      ['weather_daily', 'inventory'],
      ['vendor', 'inventory'],
      ['club', 'department'],
    ],
  };
}

async function rowCounts(dir: string, queries: string[]): Promise<number[]> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  try {
    for (const f of (await readdir(dir)).sort()) {
      const m = /^(.*)\.(csv|parquet)$/.exec(f);
      if (!m) continue;
      const file = sqlString(path.join(dir, f));
      const reader = m[2] === 'csv' ? `read_csv(${file}, auto_detect=true, header=true)` : `read_parquet(${file})`;
      await con.run(`CREATE VIEW "${m[1]}" AS SELECT * FROM ${reader}`);
    }
    const counts: number[] = [];
    for (const q of queries) {
      const r = await con.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM (${q})`);
      counts.push(Number(r.getRowObjects()[0]!.n));
    }
    return counts;
  } finally {
    con.closeSync();
    inst.closeSync();
  }
}

/** Recomputes demo/lake-gold.json; checks the CSV sources and the built (mixed-format) lake agree. */
export async function writeDemoLakeGold(builtLakeDir: string): Promise<Record<string, unknown>> {
  const sqls = GOLD_QUESTIONS.map((q) => q.sql);
  const [fromCsv, fromBuilt] = await Promise.all([rowCounts(DEMO_LAKE_SRC, sqls), rowCounts(builtLakeDir, sqls)]);
  fromCsv.forEach((n, i) => {
    if (n !== fromBuilt[i]) throw new Error(`gold ${GOLD_QUESTIONS[i]!.id}: ${n} rows over CSV, ${fromBuilt[i]} over built lake`);
    if (n === 0) throw new Error(`gold ${GOLD_QUESTIONS[i]!.id}: reference SQL returns no rows`);
  });
  const gold = {
    ...goldSkeleton(),
    questions: GOLD_QUESTIONS.map((q, i) => ({
      id: q.id,
      question: q.question,
      tables: q.tables,
      expectedRowCount: fromCsv[i],
      sql: q.sql,
      ...(q.note ? { note: q.note } : {}),
    })),
  };
  await writeFile(DEMO_LAKE_GOLD, JSON.stringify(gold, null, 2) + '\n', 'utf8');
  return gold;
}

async function main(argv: string[]): Promise<void> {
  const outIdx = argv.indexOf('--out');
  const out = outIdx >= 0 && argv[outIdx + 1] ? argv[outIdx + 1]! : DEFAULT_DEMO_LAKE_OUT;
  if (argv.includes('--regen')) {
    const files = await regenerateDemoLakeSrc();
    console.log(`regenerated ${files.length} CSVs in ${DEMO_LAKE_SRC}`);
  }
  const files = await buildDemoLake(out);
  console.log(`demo lake: ${files.length} files in ${path.resolve(out)}`);
  for (const f of files) console.log(`  ${path.basename(f)}`);
  if (argv.includes('--gold')) {
    await writeDemoLakeGold(out);
    console.log(`wrote ${DEMO_LAKE_GOLD}`);
  }
}

const invokedDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
