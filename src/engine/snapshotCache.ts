import type { CatalogDatabase } from '../catalog/database.js';
import type { Embedder } from '../embed/index.js';
import { OfflineExtractor } from '../intent/index.js';
import { fitQuestionEmbedder, loadLakeSnapshot, type LakeSnapshot } from '../search/index.js';
import type { EngineOptions } from './engine.js';
import type { TableFilter } from './types.js';

/** One caller's view of the catalog: the snapshot restricted to its grants, and its extractor. */
export interface View {
  snapshot: LakeSnapshot;
  extractor: OfflineExtractor;
}

/** The catalog snapshot, loaded once, and one `View` per distinct visible table set. */
export interface SnapshotCache {
  view(allow?: TableFilter): Promise<View>;
  /** Drops the snapshot and every view (after an ingest or delete). */
  invalidate(): void;
}

const MAX_VIEWS = 64;

export function createSnapshotCache(db: CatalogDatabase | null, embedder: Embedder, options: Pick<EngineOptions, 'loadSnapshot'>): SnapshotCache {
  let base: Promise<LakeSnapshot> | null = null;
  const views = new Map<string, Promise<View>>();

  const loadBase = () => {
    if (!base) {
      base = (async () => {
        if (!db && !options.loadSnapshot) throw new Error('createEngine without a catalog needs options.loadSnapshot');
        if (options.loadSnapshot) return fitQuestionEmbedder(await options.loadSnapshot(), embedder);
        return loadLakeSnapshot(db!, embedder);
      })();
      base.catch(() => {
        base = null;
      });
    }
    return base;
  };

  return {
    // The extractor's indexes are built per view.
    async view(allow) {
      const snap = await loadBase();
      // Key on the visible ids first: the restricted snapshot and its extractor are built only on a miss.
      const key = allow ? snap.tables.filter((t) => allow({ id: t.id, name: t.name, uri: t.uri, sourceRoot: t.sourceRoot })).map((t) => t.id).join(',') : '*';
      let v = views.get(key);
      if (!v) {
        const restricted = snap.restrict(allow);
        v = Promise.resolve({ snapshot: restricted, extractor: new OfflineExtractor(restricted.vocabulary()) });
        views.set(key, v);
        if (views.size > MAX_VIEWS) views.delete(views.keys().next().value!);
      }
      return v;
    },
    invalidate() {
      base = null;
      views.clear();
    },
  };
}
