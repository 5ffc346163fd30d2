/**
 * Builds GraphTables from real value arrays (MinHash, distinct counts, uniqueness computed
 * from the values), and a labelled lake of synthetic tables with known joins and unions.
 */
import type { LogicalType } from '../../src/lake/types.js';
import { MinHash, cellKey } from '../../src/sketch/minhash.js';
import type { GraphColumn, GraphTable } from '../../src/graph/types.js';
import { mulberry32 as rng } from '../../src/util/prng.js';
export { mulberry32 as rng } from '../../src/util/prng.js';

export type Cell = string | number | null;

export function makeColumn(
  tableId: string,
  name: string,
  ordinal: number,
  values: Cell[],
  extra: { logicalType?: LogicalType; embedding?: ArrayLike<number>; id?: string } = {},
): GraphColumn {
  const nonNull = values.filter((v): v is string | number => cellKey(v) !== null);
  const distinct = new Set(nonNull.map((v) => cellKey(v)!));
  const mh = new MinHash();
  for (const v of distinct) mh.add(v);
  const numeric = nonNull.length > 0 && nonNull.every((v) => typeof v === 'number');
  const logicalType: LogicalType =
    extra.logicalType ?? (numeric ? (nonNull.every((v) => Number.isInteger(v)) ? 'integer' : 'float') : 'text');
  const nums = numeric ? (nonNull as number[]) : [];
  return {
    id: extra.id ?? `${tableId}.${name}`,
    tableId,
    name,
    ordinal,
    logicalType,
    nullShare: values.length === 0 ? 0 : (values.length - nonNull.length) / values.length,
    distinctEstimate: distinct.size,
    uniqueness: nonNull.length === 0 ? 0 : distinct.size / nonNull.length,
    minhash: distinct.size === 0 ? [] : mh.toArray(),
    sampleValues: [...distinct].slice(0, 10),
    numericMin: nums.length ? Math.min(...nums) : null,
    numericMax: nums.length ? Math.max(...nums) : null,
    avgLength: nonNull.length ? nonNull.reduce<number>((s, v) => s + String(v).length, 0) / nonNull.length : 0,
    embedding: extra.embedding,
  };
}

export function makeTable(id: string, columns: Record<string, Cell[]>, name = id): GraphTable {
  const names = Object.keys(columns);
  const rowCount = Math.max(0, ...names.map((n) => columns[n].length));
  return { id, name, rowCount, columns: names.map((n, i) => makeColumn(id, n, i, columns[n])) };
}


export function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

function pick<T>(r: () => number, xs: readonly T[], n: number): T[] {
  return Array.from({ length: n }, () => xs[Math.floor(r() * xs.length)]);
}

const COUNTRIES: Array<[string, string, string]> = [
  ['USA', 'United States', 'North America'], ['FRA', 'France', 'Europe'], ['DEU', 'Germany', 'Europe'],
  ['ITA', 'Italy', 'Europe'], ['ESP', 'Spain', 'Europe'], ['GBR', 'United Kingdom', 'Europe'],
  ['JPN', 'Japan', 'Asia'], ['CHN', 'China', 'Asia'], ['BRA', 'Brazil', 'South America'],
  ['ARG', 'Argentina', 'South America'], ['CAN', 'Canada', 'North America'], ['MEX', 'Mexico', 'North America'],
  ['IND', 'India', 'Asia'], ['AUS', 'Australia', 'Oceania'], ['NLD', 'Netherlands', 'Europe'],
  ['BEL', 'Belgium', 'Europe'], ['SWE', 'Sweden', 'Europe'], ['NOR', 'Norway', 'Europe'],
  ['PRT', 'Portugal', 'Europe'], ['GRC', 'Greece', 'Europe'],
];

const CITY_NAMES = [
  'Boston', 'Chicago', 'Denver', 'Lyon', 'Marseille', 'Nice', 'Hamburg', 'Munich', 'Cologne', 'Milan',
  'Turin', 'Naples', 'Seville', 'Valencia', 'Bilbao', 'Leeds', 'Bristol', 'Glasgow', 'Osaka', 'Kyoto',
  'Nagoya', 'Shanghai', 'Wuhan', 'Chengdu', 'Recife', 'Salvador', 'Fortaleza', 'Rosario', 'Mendoza', 'Cordoba',
  'Calgary', 'Ottawa', 'Halifax', 'Puebla', 'Tijuana', 'Leon', 'Pune', 'Jaipur', 'Lucknow', 'Perth',
];

const FIRST = ['Ana', 'Ben', 'Cara', 'Dan', 'Eva', 'Finn', 'Gia', 'Hugo', 'Ivy', 'Jon', 'Kai', 'Lena'];
const LAST = ['Smith', 'Ortega', 'Kowalski', 'Nakamura', 'Rossi', 'Dubois', 'Meyer', 'Silva', 'Larsen', 'Novak'];

export const AIRPORTS: Array<[string, string]> = [
  ['JFK', 'Kennedy International'], ['LAX', 'Los Angeles International'], ['ORD', "O'Hare International"],
  ['CDG', 'Charles de Gaulle'], ['LHR', 'Heathrow'], ['FRA', 'Frankfurt Main'], ['AMS', 'Schiphol'],
  ['MAD', 'Barajas'], ['FCO', 'Fiumicino'], ['MUC', 'Franz Josef Strauss'], ['ZRH', 'Kloten'],
  ['HND', 'Haneda'], ['NRT', 'Narita'], ['PEK', 'Capital International'], ['SIN', 'Changi'],
  ['SYD', 'Kingsford Smith'], ['GRU', 'Guarulhos'], ['EZE', 'Ministro Pistarini'], ['YYZ', 'Pearson'],
  ['MEX', 'Benito Juarez'], ['DXB', 'Dubai International'], ['IST', 'Istanbul Airport'], ['DOH', 'Hamad'],
  ['ICN', 'Incheon'], ['BKK', 'Suvarnabhumi'],
];

const PRODUCTS = ['lamp', 'desk', 'chair', 'sofa', 'rug', 'shelf', 'mirror', 'clock', 'vase', 'stool'];
const CATEGORIES = ['Lighting', 'Furniture', 'Seating', 'Decor', 'Storage', 'Textiles', 'Outdoor', 'Kitchen', 'Bath', 'Office'];
const TAGS = [
  'vintage', 'modern', 'rustic', 'minimal', 'industrial', 'coastal', 'bohemian', 'classic', 'nordic', 'urban',
  'retro', 'eclectic', 'tropical', 'gothic', 'baroque', 'artdeco', 'shaker', 'zen', 'prairie', 'mission',
  'colonial', 'tudor', 'victorian', 'georgian', 'federal', 'craftsman', 'cottage', 'chalet', 'loft', 'studio',
];

export interface LabelledLake {
  tables: GraphTable[];
  /** Expected joins as "fromColumnId>toColumnId" (direction: foreign -> key). */
  joins: string[];
  /** Expected unions as "tableAId|tableBId" with tableAId < tableBId. */
  unions: string[];
}

/**
 * 16 tables. Joins: by name evidence over small dense integer ids (player.club_id -> club.id),
 * by specific values without name evidence (flight.origin -> airport.iata,
 * transfer.acct -> account.account_number). Decoys: sensor (ids 1..50, contained in or
 * containing most other id columns), product/category and club/category (share only
 * `id`/`name`). Unions: disjoint row shards (game, tag) and a verbatim copy (club_copy).
 */
export function labelledLake(): LabelledLake {
  const r = rng(7);
  const players = range(1, 60);
  const playerNames = players.map((i) => `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`);
  const clubIds = range(1, 20);
  const clubNames = clubIds.map((i) => `FC ${['North', 'South', 'East', 'West', 'Lake'][i % 5]} ${['Rovers', 'United', 'City', 'Athletic'][i % 4]} ${i}`);
  const cityCountry = pick(r, COUNTRIES.slice(0, 12).map((c) => c[0]), 40);
  const gameIds = range(1, 200);
  const gamePlayers = pick(r, players, 200);
  const gameScores = gameIds.map(() => Math.floor(r() * 101));
  const iatas = AIRPORTS.map((a) => a[0]);
  const accounts = range(1, 40).map(() => 10_000_000 + Math.floor(r() * 89_999_999));
  const owners = range(1, 40).map((i) => `Owner ${LAST[i % LAST.length]} ${i}`);
  const products = range(1, 30);
  const tags = range(1, 30);

  const tables: GraphTable[] = [
    makeTable('country', {
      code: COUNTRIES.map((c) => c[0]),
      name: COUNTRIES.map((c) => c[1]),
      continent: COUNTRIES.map((c) => c[2]),
    }),
    makeTable('city', {
      id: range(1, 40),
      name: CITY_NAMES,
      country_code: cityCountry,
      population: range(1, 40).map(() => 50_000 + Math.floor(r() * 8_000_000)),
    }),
    makeTable('player', { player_id: players, name: playerNames, club_id: pick(r, clubIds, 60) }),
    makeTable('club', { id: clubIds, club_name: clubNames }),
    makeTable('club_copy', { id: clubIds, club_name: clubNames }),
    makeTable('game_part1', {
      game_id: gameIds.slice(0, 100),
      player_id: gamePlayers.slice(0, 100),
      score: gameScores.slice(0, 100),
    }),
    makeTable('game_part2', {
      game_id: gameIds.slice(100),
      player_id: gamePlayers.slice(100),
      score: gameScores.slice(100),
    }),
    makeTable('sensor', { id: range(1, 50), reading: range(1, 50).map(() => Math.round(r() * 10000) / 100) }),
    makeTable('product', {
      id: products,
      name: products.map((i) => `${PRODUCTS[i % PRODUCTS.length]} model ${i}`),
      price: products.map(() => Math.round(r() * 50000) / 100),
    }),
    makeTable('category', { id: range(1, 10), name: CATEGORIES }),
    makeTable('tag_part1', { id: tags.slice(0, 15), name: TAGS.slice(0, 15) }),
    makeTable('tag_part2', { id: tags.slice(15), name: TAGS.slice(15) }),
    makeTable('airport', { iata: iatas, airport_name: AIRPORTS.map((a) => a[1]) }),
    makeTable('flight', {
      flight_no: range(1, 80).map((i) => `GF${1000 + i}`),
      origin: pick(r, iatas, 80),
      dest: pick(r, iatas, 80),
    }),
    makeTable('account', { account_number: accounts, owner: owners }),
    makeTable('transfer', {
      acct: pick(r, accounts, 90),
      amount: range(1, 90).map(() => Math.round(r() * 100000) / 100),
    }),
  ];
  return {
    tables,
    joins: [
      'city.country_code>country.code',
      'player.club_id>club.id',
      'player.club_id>club_copy.id',
      'game_part1.player_id>player.player_id',
      'game_part2.player_id>player.player_id',
      'flight.origin>airport.iata',
      'flight.dest>airport.iata',
      'transfer.acct>account.account_number',
    ],
    unions: ['club|club_copy', 'game_part1|game_part2', 'tag_part1|tag_part2'],
  };
}
