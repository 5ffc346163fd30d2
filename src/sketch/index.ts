export {
  DEFAULT_NUM_PERM,
  EMPTY_SLOT,
  MinHash,
  cellKey,
  containment,
  hash32,
  isEmptySignature,
  jaccard,
} from './minhash.js';
export { DEFAULT_HLL_PRECISION, HyperLogLog, fmix32, hllEstimate } from './hll.js';
