import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * The repository root: the nearest folder above this module holding package.json. The same
 * from src/util and from the compiled dist/src/util (dist has no package.json of its own), so
 * files kept beside the code (migrations/, schema/, demo/) are found from either.
 */
function findRoot(): string {
  for (let dir = HERE; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${HERE}`);
  }
}

let root: string | undefined;

/** A path under the repository root. */
export function projectPath(...parts: string[]): string {
  root ??= findRoot();
  return path.join(root, ...parts);
}
