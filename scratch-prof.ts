import { openCatalog } from './src/catalog/index.js';
import { HashedNgramEmbedder } from './src/embed/index.js';
import { createEngine } from './src/engine/index.js';
const db = await openCatalog({ dataDir: '/tmp/spider-db' });
const engine = createEngine(db, new HashedNgramEmbedder());
await engine.synthesize('warm', { budget: 10 });
const qs = ['Find the name of the makers that produced some cars in the year of 1970?', 'For each shop, return the number of employees working there and the name of the shop.', 'Show all document ids, names and the number of paragraphs in each document.'];
for (const q of qs) { const t = performance.now(); const r = await engine.synthesize(q, { budget: 10 }); console.log((performance.now() - t).toFixed(0), 'ms', r.tables.length); }
await db.close();
