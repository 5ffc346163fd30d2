/** Public API of the lineage layer: OpenLineage run events for ingests and syntheses, and their delivery. */
export {
  datasetName,
  ingestTableEvents,
  synthesisEvents,
  GRAFT_DATASET_NAMESPACE,
  JOB_NAMESPACE,
  PRODUCER,
  RUN_EVENT_SCHEMA_URL,
  type LineageDataset,
  type LineageTable,
  type RunEvent,
} from './events.js';
export { LineageEmitter, type LineageSinkOptions, type LineageVisibility } from './emitter.js';
