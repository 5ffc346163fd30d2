/** IGMS: the information-gain reward of a table synthesis, its explanation, and lazy greedy. */
export { IgmsInputError, NotPositiveDefiniteError } from './errors.js';
export {
  assertSymmetric,
  cholesky,
  choleskyExtend,
  choleskyRankOneUpdate,
  GrowingCholesky,
  inverseFromCholesky,
  logDetFromCholesky,
  logDetPD,
  Matrix,
  schurStep,
  solveCholesky,
  solveLower,
  solveLowerTranspose,
} from './linalg.js';
export { factorPrior, intentLaplacian, priorPrecision, type AtomEdge, type IgmsPrior } from './prior.js';
export { dataInformation, igmsUtility, IgmsState, unitOf, type IgmsInput, type IgmsUnit } from './igms.js';
export { covarianceFromContent, covarianceFromRedundancy } from './covariance.js';
export {
  contentRedundancy,
  expandPieceModel,
  igmsPieceUtility,
  normalisePieceUnit,
  normalisePieceUnits,
  pieceAtomInformation,
  PieceIgmsState,
  piecesFromSignatures,
  type ContentPiece,
  type NormalisedPieceUnit,
  type PieceCell,
  type PieceModelOptions,
  type PieceUnit,
} from './pieceModel.js';
export { gaussianObjective, objectiveValue, pieceObjective, type IgmsObjective } from './objective.js';
export {
  explainIgms,
  type AtomSupport,
  type ExplainOptions,
  type IgmsExplanation,
  type RedundantPair,
  type UnitContribution,
} from './explain.js';
export { lazyGreedy, plainGreedy, type GreedyOptions, type GreedyPick, type GreedyResult } from './lazyGreedy.js';
