import { writeFile } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { BadInputError } from '../../util/errors.js';
import { DEFAULT_TRANSITION_OPTIONS } from '../../value/defaults.js';
import { withContext } from '../context.js';
import { intListOption, intOption, numberOption } from '../options.js';
import { printTable } from '../table.js';

interface TrainFlags {
  trajectories: number;
  sampler: string;
  gamma: number;
  steps?: number;
  hidden?: number[];
  seed: number;
  out?: string;
}

const SAMPLERS = ['centrality', 'anchor', 'uniform'] as const;

/** A progress bar per phase on a TTY; sparse log lines otherwise. */
function trainingProgress(stream: NodeJS.WriteStream = process.stderr) {
  let bar: cliProgress.SingleBar | null = null;
  let phase = '';
  let lastLine = 0;
  return {
    update(p: string, done: number, total: number, detail = '') {
      if (stream.isTTY) {
        if (p !== phase) {
          bar?.stop();
          bar = new cliProgress.SingleBar({ format: `${p.padEnd(12)} [{bar}] {value}/{total} {detail}`, stream, hideCursor: true }, cliProgress.Presets.shades_classic);
          bar.start(total, 0, { detail });
          phase = p;
        }
        bar!.update(done, { detail });
        return;
      }
      const now = Date.now();
      if (p === phase && done < total && now - lastLine < 5000) return;
      phase = p;
      lastLine = now;
      stream.write(`value train: ${p} ${done}/${total} ${detail}\n`);
    },
    stop() {
      bar?.stop();
    },
  };
}

export function registerValueCommands(program: Command): void {
  const value = program.command('value').description('the learned value network Q(s, a) that guides the search');

  value
    .command('train')
    .description('generate trajectories from the lake, train Q with implicit Q-learning, store the ONNX model in the catalog')
    .option('--trajectories <n>', 'sampled table sets (each replayed clean and perturbed)', intOption('trajectories', { min: 0 }), DEFAULT_TRANSITION_OPTIONS.trajectories)
    .option('--sampler <kind>', `trajectory sampler: ${SAMPLERS.join(' | ')}`, 'centrality')
    .option('--gamma <g>', 'discount', numberOption('gamma', { min: 0, max: 1 }), DEFAULT_TRANSITION_OPTIONS.gamma)
    .option('--steps <n>', 'gradient steps (default: the trainer default)', intOption('steps', { min: 0 }))
    .option('--hidden <sizes>', 'hidden layer sizes, comma-separated (e.g. 512,512)', intListOption('hidden', { min: 1 }))
    .option('--seed <n>', 'seed of the sampler and the trainer', intOption('seed', { min: 0 }), 7)
    .option('--out <file>', 'also write the ONNX model to this file')
    .action(async (flags: TrainFlags) => {
      if (!(SAMPLERS as readonly string[]).includes(flags.sampler)) throw new BadInputError(`--sampler must be one of ${SAMPLERS.join(', ')} (got "${flags.sampler}")`);
      const { trainAndStoreValueModel } = await import('../../value/catalogTraining.js');
      await withContext(async ({ db, embedder }) => {
        const progress = trainingProgress();
        let result;
        try {
          result = await trainAndStoreValueModel(db, embedder, {
            transitions: { trajectories: flags.trajectories, sampler: flags.sampler as (typeof SAMPLERS)[number], seed: flags.seed },
            iql: { gamma: flags.gamma, seed: flags.seed, ...(flags.steps !== undefined ? { steps: flags.steps } : {}), ...(flags.hidden ? { hidden: flags.hidden } : {}) },
            onProgress: (phase, done, total, detail) => progress.update(phase, done, total, detail),
          });
        } finally {
          progress.stop();
        }
        if (flags.out) await writeFile(flags.out, result.model.onnx);
        const r = result.record;
        process.stdout.write(
          `value model ${r.id}: ${r.trajectories} trajectories, ${r.transitions} transitions, sampler ${r.sampler}, gamma ${r.gamma}\n` +
            `held-out value MAPE ${r.heldOutMape.toFixed(3)}, trained in ${(r.trainMs / 1000).toFixed(1)} s ` +
            `(IQL ${Number(r.metadata.iqlMsPerStep).toFixed(1)} ms/step on tfjs ${String(r.metadata.backend)}); lake ${r.lakeFingerprint.slice(0, 12)}, features v${r.featureVersion}\n` +
            (flags.out ? `ONNX model written to ${flags.out}\n` : ''),
        );
      });
    });

  value
    .command('list')
    .description('stored value models, newest first')
    .action(async () => {
      const { listValueModels } = await import('../../catalog/index.js');
      await withContext(async ({ db }) => {
        const models = await listValueModels(db);
        if (models.length === 0) {
          process.stdout.write('no value model stored (graft value train)\n');
          return;
        }
        printTable(
          ['id', 'created', 'lake', 'features', 'sampler', 'gamma', 'trajectories', 'MAPE', 'train s'],
          models.map((m) => [m.id, m.createdAt.toISOString(), m.lakeFingerprint.slice(0, 12), `v${m.featureVersion}`, m.sampler, String(m.gamma), String(m.trajectories), m.heldOutMape.toFixed(3), (m.trainMs / 1000).toFixed(1)]),
        );
      }, { bufferPool: 'small' });
    });
}
