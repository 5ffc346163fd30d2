import { readFileSync } from 'node:fs';
import { openCatalog } from './src/catalog/index.js';
import { HashedNgramEmbedder } from './src/embed/index.js';
import { createEngine } from './src/engine/index.js';
const gold = JSON.parse(readFileSync('lakes/spider/gold.json', 'utf8'));
const db = await openCatalog({ dataDir: '/tmp/spider-db' });
const engine = createEngine(db, new HashedNgramEmbedder());
const L = Number(process.env.L ?? 10);
const limit = Number(process.env.N ?? 200);
const step = Number(process.env.STEP ?? 4);
const qs = gold.questions.filter((_: unknown, i: number) => i % step === 0).slice(0, limit);
let n = 0, f1s = 0, sufs = 0, n2 = 0, f12 = 0, suf2 = 0, sizes = 0;
const lat: number[] = [];
await engine.synthesize('warm up', { budget: L });
const fails: string[] = [];
for (const q of qs) {
  const t0 = performance.now();
  const r = await engine.synthesize(q.question, { budget: L, ...(process.env.MG ? { minGain: Number(process.env.MG) } : {}) });
  lat.push(performance.now() - t0);
  const got = new Set(r.tables.map((t) => t.name));
  const goldSet = new Set<string>(q.goldLake);
  const tp = [...got].filter((x) => goldSet.has(x)).length;
  const p = got.size ? tp / got.size : 0, rc = tp / goldSet.size;
  const f1 = p + rc ? (2 * p * rc) / (p + rc) : 0;
  const suf = tp === goldSet.size ? 1 : 0;
  n++; f1s += f1; sufs += suf; sizes += got.size;
  if (q.goldBase.length >= 2) { n2++; f12 += f1; suf2 += suf; if (!suf && fails.length < 15) fails.push(`${q.question}\n   gold ${[...goldSet].join(',')}\n   got  ${[...got].join(',')}`); }
}
lat.sort((a, b) => a - b);
console.log(`L=${L} n=${n} F1=${(f1s / n).toFixed(3)} Suf=${(sufs / n).toFixed(3)} | >=2: n=${n2} F1=${(f12 / n2).toFixed(3)} Suf=${(suf2 / n2).toFixed(3)} | avg tables ${(sizes / n).toFixed(2)} p50 ${lat[Math.floor(n / 2)].toFixed(0)}ms p95 ${lat[Math.floor(n * 0.95)].toFixed(0)}ms`);
if (process.env.FAILS) console.log(fails.join('\n'));
await db.close();
