/** Option parsers shared by the commands (commander calls them with the raw flag value). */
import { BadInputError } from '../util/errors.js';

/** `v` as a number (an integer when `integer`), or a BadInputError naming the flag; an empty value is no 0. */
function parseNumber(name: string, v: string, integer: boolean): number {
  const n = Number(v);
  if (v.trim() === '' || !(integer ? Number.isInteger(n) : Number.isFinite(n))) {
    throw new BadInputError(`--${name} must be ${integer ? 'an integer' : 'a number'} (got "${v}")`);
  }
  return n;
}

/** `--name <n>` as an integer, or a BadInputError naming the flag. */
export function intOption(name: string): (v: string) => number {
  return (v: string) => parseNumber(name, v, true);
}

/** `--name <x>` as a finite number, or a BadInputError naming the flag. */
export function numberOption(name: string): (v: string) => number {
  return (v: string) => parseNumber(name, v, false);
}
