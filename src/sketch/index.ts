export {
  DEFAULT_NUM_PERM,
  EMPTY_SLOT,
  MinHash,
  containment,
  hash32,
  isEmptySignature,
  jaccard,
  normaliseValue,
} from './minhash.js';
export { DEFAULT_HLL_PRECISION, HyperLogLog, fmix32, hllEstimate } from './hll.js';
