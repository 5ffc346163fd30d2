import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A small hand-made enrichment lake. One original table of 240 houses (house_id 1..240, city,
 * sqft, bedrooms, year_built, lot_size, price) is cut as the enrichment benchmark cuts its tables:
 *  - housing/houses.csv            base shard: rows 1..150, the target (price) and two attributes;
 *  - housing/houses_2024.csv       row shard: rows 151..240, the same columns (a union adds instances);
 *  - housing/house_details.csv     column shard: every row's key and three more attributes (a join);
 *  - housing/house_details_backup.csv  a byte-identical copy of the column shard (redundant);
 *  - housing/valuations.csv        the target again under another name for the same rows (a leak);
 * plus an unrelated source (other/) whose integer ids also cover 1..240 and whose schema shares
 * nothing with the houses.
 */
const csv = (header: string[], rows: (string | number)[][]) => [header.join(','), ...rows.map((r) => r.join(','))].join('\n') + '\n';
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const CITIES = ['Lyon', 'Porto', 'Graz', 'Turku', 'Ghent'];

export interface House {
  house_id: number;
  city: string;
  sqft: number;
  bedrooms: number;
  year_built: number;
  lot_size: number;
  price: number;
}

export function house(i: number): House {
  const sqft = 600 + ((i * 37) % 40) * 45;
  const bedrooms = 1 + (i % 5);
  const year_built = 1950 + ((i * 13) % 70);
  const lot_size = 200 + ((i * 29) % 50) * 20;
  const city = CITIES[i % CITIES.length]!;
  const price = Math.round(50 + sqft * 0.2 + bedrooms * 15 + (year_built - 1950) * 1.5 + lot_size * 0.05);
  return { house_id: i, city, sqft, bedrooms, year_built, lot_size, price };
}

export const BASE_ROWS = 150;
export const ALL_ROWS = 240;

export async function writeHousingLake(root: string): Promise<void> {
  await mkdir(path.join(root, 'housing'), { recursive: true });
  await mkdir(path.join(root, 'other'), { recursive: true });
  const base = ['house_id', 'city', 'sqft', 'price'];
  const row = (h: House) => [h.house_id, h.city, h.sqft, h.price];
  await writeFile(path.join(root, 'housing/houses.csv'), csv(base, range(1, BASE_ROWS).map((i) => row(house(i)))));
  await writeFile(path.join(root, 'housing/houses_2024.csv'), csv(base, range(BASE_ROWS + 1, ALL_ROWS).map((i) => row(house(i)))));
  const details = csv(['house_id', 'bedrooms', 'year_built', 'lot_size'], range(1, ALL_ROWS).map((i) => {
    const h = house(i);
    return [h.house_id, h.bedrooms, h.year_built, h.lot_size];
  }));
  await writeFile(path.join(root, 'housing/house_details.csv'), details);
  await writeFile(path.join(root, 'housing/house_details_backup.csv'), details);
  await writeFile(path.join(root, 'housing/valuations.csv'), csv(['house_id', 'assessed_value'], range(1, ALL_ROWS).map((i) => [i, house(i).price])));
  await writeFile(
    path.join(root, 'other/sensor_readings.csv'),
    csv(['reading_id', 'station', 'humidity'], range(1, 400).map((i) => [i, `st-${i % 7}`, 30 + ((i * 17) % 60)])),
  );
}
