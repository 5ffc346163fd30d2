export { ingestLake, startIngestRun, type IngestOptions, type IngestProgress, type IngestSummary, type IngestIssue } from './ingest.js';
export { refreshEmbeddings, isCorpusFitted, type CorpusFittedEmbedder } from './refreshEmbeddings.js';
