/** Option parsers shared by the commands (commander calls them with the raw flag value). */
import { BadInputError } from '../util/errors.js';

/** Bounds a number must keep, both inclusive. */
export interface NumberRange {
  min?: number;
  max?: number;
}

function describe(integer: boolean, range: NumberRange, plural = false): string {
  const noun = integer ? (plural ? 'integers' : 'an integer') : plural ? 'numbers' : 'a number';
  if (range.min !== undefined && range.max !== undefined) return `${noun} in ${range.min}..${range.max}`;
  if (range.min !== undefined) return `${noun} >= ${range.min}`;
  if (range.max !== undefined) return `${noun} <= ${range.max}`;
  return noun;
}

/** Whether `v` reads as such a number; an empty value is no 0. */
function valid(v: string, integer: boolean, range: NumberRange): boolean {
  const n = Number(v);
  return (
    v.trim() !== '' &&
    (integer ? Number.isInteger(n) : Number.isFinite(n)) &&
    (range.min === undefined || n >= range.min) &&
    (range.max === undefined || n <= range.max)
  );
}

function refuse(name: string, what: string, v: string): never {
  throw new BadInputError(`--${name} must be ${what} (got "${v}")`, { field: `--${name}` });
}

/** `--name <n>` as an integer within `range`, or a BadInputError naming the flag. */
export function intOption(name: string, range: NumberRange = {}): (v: string) => number {
  return (v: string) => (valid(v, true, range) ? Number(v) : refuse(name, describe(true, range), v));
}

/** `--name <x>` as a finite number within `range`, or a BadInputError naming the flag. */
export function numberOption(name: string, range: NumberRange = {}): (v: string) => number {
  return (v: string) => (valid(v, false, range) ? Number(v) : refuse(name, describe(false, range), v));
}

/** `--name <a,b,...>` as one or more integers within `range`, or a BadInputError naming the flag. */
export function intListOption(name: string, range: NumberRange = {}): (v: string) => number[] {
  return (v: string) => {
    const parts = v.split(',').map((s) => s.trim());
    if (!parts.every((p) => valid(p, true, range))) refuse(name, `a comma-separated list of ${describe(true, range, true)}`, v);
    return parts.map(Number);
  };
}

/**
 * The value after `--name` in a script's own arguments (`process.argv.slice(2)`), or `fallback`
 * when the flag is absent or last: what the bench scripts read their flags with, outside commander.
 */
export function flagValue(args: readonly string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
}
