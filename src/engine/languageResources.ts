import { defaultWordVectors, defaultWordVectorsLoaded } from '../embed/index.js';
import { defaultSynonyms } from '../intent/index.js';
import { defaultLemmatiser, defaultLemmatiserLoaded } from '../text/index.js';

/**
 * The word lists every question reads, each loaded once per thread on first use: wink's
 * lemmatiser model, the compact word vectors and WordNet's files (about 0.6 s on a 2-core
 * machine). An engine worker loads them before it takes its first task (engineWorker.ts), so a
 * worker that replaces one killed by a cancelled call does not spend a caller's question on
 * them: piscina hands a worker tasks only once its module has been evaluated.
 */
export function loadLanguageResources(): void {
  defaultLemmatiser();
  defaultWordVectors();
  defaultSynonyms().load();
}

/** Which of those this thread has loaded. */
export function languageResourcesLoaded(): { lemmatiser: boolean; wordVectors: boolean; wordNet: boolean } {
  return { lemmatiser: defaultLemmatiserLoaded(), wordVectors: defaultWordVectorsLoaded(), wordNet: defaultSynonyms().loaded() };
}
