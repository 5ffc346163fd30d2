import { readFileSync } from 'node:fs';
import { openCatalog } from './src/catalog/index.js';
import { HashedNgramEmbedder } from './src/embed/index.js';
import { createEngine } from './src/engine/index.js';
const gold = JSON.parse(readFileSync('lakes/spider/gold.json', 'utf8'));
const db = await openCatalog({ dataDir: '/tmp/spider-db' });
const engine = createEngine(db, new HashedNgramEmbedder());
await engine.synthesize('warm', { budget: 10 });
const start = Number(process.env.START ?? 0);
let total = 0;
for (const q of gold.questions.slice(start, start + Number(process.env.N ?? 150))) {
  const t = performance.now();
  await engine.synthesize(q.question, { budget: 10 });
  const ms = performance.now() - t; total += ms;
  if (ms > 1500) console.log(q.index, ms.toFixed(0), q.question);
}
console.log('total', (total / 1000).toFixed(1), 's');
await db.close();
