import type { EnrichTask } from '../types.js';

/**
 * The enrichment benchmark's source tables: real public datasets that install from npm
 * (`vega-datasets` 2.x, BSD-3-Clause package; each dataset keeps the terms of its original
 * source, as vega-datasets' sources.md lists them). Four regression and four classification
 * targets, each table >= 300 rows.
 */
export interface EnrichDatasetSpec {
  /** Visible table name of every shard (`<name>_<8 hex>`). */
  name: string;
  /** File under node_modules/vega-datasets/data. */
  file: string;
  /** Target column (after snake_casing). */
  target: string;
  task: EnrichTask;
  /** Row key added to every shard (the data has none). */
  key: string;
  /** Columns left out (snake_cased): identifiers and columns recorded after the outcome. */
  drop: string[];
  source: string;
  licence: string;
}

export const ENRICH_DATASETS: EnrichDatasetSpec[] = [
  {
    name: 'cars',
    file: 'cars.json',
    target: 'miles_per_gallon',
    task: 'regression',
    key: 'car_id',
    drop: ['name'],
    source: 'StatLib auto MPG data (http://lib.stat.cmu.edu/datasets/), via vega-datasets',
    licence: 'StatLib: free for non-commercial use',
  },
  {
    name: 'gapminder',
    file: 'gapminder.json',
    target: 'life_expect',
    task: 'regression',
    key: 'record_id',
    drop: [],
    source: 'Gapminder Foundation (https://www.gapminder.org/data/), via vega-datasets',
    licence: 'CC BY 4.0',
  },
  {
    name: 'movies',
    file: 'movies.json',
    target: 'imdb_rating',
    task: 'regression',
    key: 'movie_id',
    drop: ['title', 'imdb_votes'],
    source: 'The Numbers / IMDb / Rotten Tomatoes figures as compiled in vega-datasets movies.json',
    licence: 'unstated by vega-datasets (benchmark use only)',
  },
  {
    name: 'flights',
    file: 'flights-2k.json',
    target: 'delay',
    task: 'regression',
    key: 'flight_id',
    drop: [],
    source: 'U.S. Bureau of Transportation Statistics on-time data (https://www.transtats.bts.gov), vega-datasets flights-2k.json',
    licence: 'U.S. government work, public domain',
  },
  {
    name: 'penguins',
    file: 'penguins.json',
    target: 'species',
    task: 'classification',
    key: 'penguin_id',
    drop: [],
    source: 'Palmer Station penguins (Gorman, Williams & Fraser 2014; palmerpenguins), via vega-datasets',
    licence: 'CC0',
  },
  {
    name: 'seattle_weather',
    file: 'seattle-weather.csv',
    target: 'weather',
    task: 'classification',
    key: 'day_id',
    drop: [],
    source: 'NOAA Climate Data Online (http://www.ncdc.noaa.gov/cdo-web/), via vega-datasets',
    licence: 'U.S. government work, public domain',
  },
  {
    name: 'birdstrikes',
    file: 'birdstrikes.csv',
    target: 'effect_amount_of_damage',
    task: 'classification',
    key: 'strike_id',
    drop: ['cost_other', 'cost_repair', 'cost_total'],
    source: 'FAA Wildlife Strike Database (http://wildlife.faa.gov), via vega-datasets',
    licence: 'U.S. government work, public domain',
  },
  {
    name: 'zipcodes',
    file: 'zipcodes.csv',
    target: 'state',
    task: 'classification',
    key: 'place_id',
    drop: ['zip_code'],
    source: 'U.S. ZIP code centroids as shipped in vega-datasets zipcodes.csv',
    licence: 'unstated by vega-datasets (benchmark use only)',
  },
];

/** `Beak Length (mm)` -> `beak_length_mm`, `Cost Total $` -> `cost_total`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
