import { BadInputError } from '../util/errors.js';

/**
 * A matrix that must be symmetric positive definite is not (a noise covariance C, a prior
 * precision, or the conditional variance of a unit given the selected ones). `field` names the
 * offending input, `pivot` the index of the first failing Cholesky pivot and `value` its value.
 */
export class NotPositiveDefiniteError extends BadInputError {
  constructor(
    readonly field: string,
    readonly pivot: number,
    readonly value: number,
  ) {
    super(`${field}: matrix is not positive definite (Cholesky pivot ${pivot} = ${value})`, {
      field,
      pivot,
      value,
    });
    this.name = 'NotPositiveDefiniteError';
  }
}

/** Bad shape or value in an IGMS input; `field` names it (e.g. `M[2][0]`, `units[3].support`). */
export class IgmsInputError extends BadInputError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`, { field });
    this.name = 'IgmsInputError';
  }
}
