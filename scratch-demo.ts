import { openCatalog } from './src/catalog/index.js';
import { HashedNgramEmbedder } from './src/embed/index.js';
import { createEngine } from './src/engine/index.js';
import { readFileSync } from 'node:fs';
const db = await openCatalog({ dataDir: '/tmp/gh/db' });
const engine = createEngine(db, new HashedNgramEmbedder());
const gold = JSON.parse(readFileSync('demo/lake-gold.json', 'utf8'));
for (const q of gold.questions) {
  const r = await engine.synthesize(q.question, { budget: 10 });
  const ok = [...r.tables.map((t) => t.name)].sort().join() === [...q.tables].sort().join();
  console.log(ok ? 'OK ' : 'BAD', q.id, r.tables.map((t) => `${t.name}(${t.role} ${t.gain.toFixed(3)})`).join(','));
}
await db.close();
