import type { CatalogDatabase } from '../catalog/database.js';
import { DEFAULT_SEARCH_OPTIONS, type ValueFunction } from '../search/index.js';
import type { EngineOptions, ValueModelStatus } from './engine.js';

/** The engine's registry of value functions and the lifecycle of the learned one. */
export interface ValueModels {
  /** Which value function answers when a call names none (loads the learned model once). */
  status(): Promise<ValueModelStatus>;
  get(name: string): ValueFunction | undefined;
  names(): string[];
  register(fn: ValueFunction): void;
  /** Forgets the learned model (the lake changed): it is matched again on the next `status`. */
  invalidate(): void;
}

export function createValueModels(db: CatalogDatabase | null, options: EngineOptions): ValueModels {
  const valueFunctions = new Map<string, ValueFunction>([['heuristic', DEFAULT_SEARCH_OPTIONS.valueFunction]]);
  let learned: Promise<ValueModelStatus> | null = null;
  let learnedFn: ValueFunction | null = null;
  // Bumped by `invalidate`: a load that started before it must not register its (stale) model.
  let learnedGeneration = 0;

  // The learned value model is looked up with the snapshot (and again after `invalidate`): an
  // ingest changes the lake fingerprint, and a model of another lake state must not be used.
  const status = (): Promise<ValueModelStatus> => {
    if (!learned) {
      const generation = learnedGeneration;
      learned = (async (): Promise<ValueModelStatus> => {
        if ((options.valueModel ?? 'auto') === 'off' || !db) return { defaultValueFunction: 'heuristic', model: null, reason: 'learned value model disabled' };
        let r;
        try {
          if (!options.loadValueModel) return { defaultValueFunction: 'heuristic', model: null, reason: 'no learned value model loader given (EngineOptions.loadValueModel)' };
          r = await options.loadValueModel(db, { provider: options.valueProvider, log: options.log });
        } catch (err) {
          // A model that cannot be loaded must not take question answering down with it.
          const reason = `learned value model not loaded: ${(err as Error).message}`;
          options.log?.(reason);
          return { defaultValueFunction: 'heuristic', model: null, reason };
        }
        if (!r.fn) return { defaultValueFunction: 'heuristic', model: null, reason: r.reason };
        if (generation !== learnedGeneration) return { defaultValueFunction: 'heuristic', model: null, reason: 'catalog changed while the model was loading' };
        valueFunctions.set(r.fn.name, r.fn);
        learnedFn = r.fn;
        return { defaultValueFunction: r.fn.name, model: r.record, provider: r.provider };
      })();
      learned.catch(() => {
        learned = null;
      });
    }
    return learned;
  };

  return {
    status,
    get: (name) => valueFunctions.get(name),
    names: () => [...valueFunctions.keys()],
    register: (fn) => void valueFunctions.set(fn.name, fn),
    invalidate() {
      // Its session is not released here: a search in flight may still be scoring with it.
      learned = null;
      learnedGeneration++;
      if (learnedFn && valueFunctions.get(learnedFn.name) === learnedFn) valueFunctions.delete(learnedFn.name);
      learnedFn = null;
    },
  };
}
