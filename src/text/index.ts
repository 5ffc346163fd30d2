export {
  NAME_INDEX_SPLIT,
  foldCase,
  isNoiseToken,
  splitHeaderWords,
  splitIdentifier,
  stripDiacritics,
  type SplitOptions,
} from './identifiers.js';
export { foldPlural, foldUnknownPlural, singularise } from './plurals.js';
export {
  defaultLemmatiser,
  defaultLemmatiserLoaded,
  lemmatiseHeaderWord,
  lemmatiserLoadError,
  ruleLemma,
  ruleLemmatiser,
  type Lemmatiser,
} from './lemmatiser.js';
export { hashValueForm, MAX_HASHED_VALUE_WORDS, normaliseValue, valueHash } from './values.js';
export { oneEditSpellings } from './spelling.js';
