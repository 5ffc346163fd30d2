import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README's first two commands are what a new user types on a fresh machine; CI must run
 * exactly those, with no environment a user would not have (a CI that exported a variable to get
 * past an install script once hid a README line that failed everywhere else).
 */
const root = path.resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(path.join(root, f), 'utf8');

function readmeSetupCommands(): string[] {
  const block = /```bash\n([\s\S]*?)```/.exec(read('README.md'));
  if (!block) throw new Error('README.md has no ```bash block');
  return block[1]
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '');
}

describe('README set-up and test commands', () => {
  it('are the first code block: `npm ci && npm start`, then `npm test`', () => {
    expect(readmeSetupCommands()).toEqual(['npm ci && npm start', 'npm test']);
  });

  it('.ci/run runs each of them verbatim', () => {
    const ci = read('.ci/run');
    for (const cmd of readmeSetupCommands()) {
      const runs = ci.split('\n').filter((l) => !l.trim().startsWith('#') && l.includes(cmd));
      expect(runs, `.ci/run must run '${cmd}'`).not.toHaveLength(0);
    }
  });

  it('.ci/run exports nothing but CI, and the install needs no variable: onnxruntime-node is told by the project .npmrc', () => {
    const exported = read('.ci/run')
      .split('\n')
      .filter((l) => /^\s*export\s/.test(l))
      .map((l) => l.trim().replace(/^export\s+/, '').split('=')[0]);
    expect(exported).toEqual(['CI']);
    const npmrc = read('.npmrc').split('\n').map((l) => l.trim());
    expect(npmrc).toContain('onnxruntime-node-install=skip');
  });
});
