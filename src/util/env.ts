import { BadInputError } from './errors.js';

/**
 * An integer environment variable: undefined when unset or blank, else a whole number in
 * [min, max] (max: no bound when absent), or a BadInputError naming the variable.
 */
export function envInt(env: Record<string, string | undefined>, name: string, min: number, max?: number): number | undefined {
  const v = env[name]?.trim();
  if (!v) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
    const range = max !== undefined ? `in ${min}..${max}` : `of at least ${min}`;
    throw new BadInputError(`${name} must be an integer ${range}, not '${v}'`, { variable: name });
  }
  return n;
}
