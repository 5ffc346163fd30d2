import { readFileSync } from 'node:fs';
import { OfflineExtractor } from './src/intent/offline-extractor.js';
import { SYNTHETIC_QUESTIONS, syntheticLake } from './test/intent/fixtures/synthetic-lake.js';
const dev = JSON.parse(readFileSync('/work/shared/data-raw/jar/spider/dev.json', 'utf8')) as { question: string }[];
const qs = [...SYNTHETIC_QUESTIONS, ...dev.map(d => d.question)];
const x = new OfflineExtractor(syntheticLake());
for (const q of qs) x.extract(q);
const times = qs.map(q => { const t = performance.now(); for (let i=0;i<3;i++) x.extract(q); return [(performance.now()-t)/3, q] as [number,string]; });
times.sort((a,b)=>b[0]-a[0]);
for (const [t,q] of times.slice(0,8)) { const r = x.extract(q); console.log(t.toFixed(2), q, r.graph.trees.length, r.graph.trees.map(t=>t.attributes.length)); }
