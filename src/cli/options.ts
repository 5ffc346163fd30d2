/** Option parsers shared by the commands (commander calls them with the raw flag value). */
import { BadInputError } from '../util/errors.js';

/** `--name <n>` as an integer, or a BadInputError naming the flag. */
export function intOption(name: string): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n)) throw new BadInputError(`--${name} must be an integer (got "${v}")`);
    return n;
  };
}

/** `--name <x>` as a finite number, or a BadInputError naming the flag. */
export function numberOption(name: string): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new BadInputError(`--${name} must be a number (got "${v}")`);
    return n;
  };
}
