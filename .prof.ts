import { OfflineExtractor } from './src/intent/offline-extractor.js';
import { syntheticLake } from './test/intent/fixtures/synthetic-lake.js';
const x = new OfflineExtractor(syntheticLake());
const q = 'Return the document id, template id, and description for the document with the name Robbin CV.';
x.extract(q);
const t = performance.now(); for (let i = 0; i < 1000; i++) x.extract(q); console.log((performance.now() - t) / 200);
