/**
 * The importers' public face: one importer per log format (import-transcript.ts), the format table,
 * detection and the session listing.
 */
export {
  importFormats,
  type ImportFormat,
  type ImportOptions,
  type ImportResult,
  type ImportStats,
} from './importer.ts';
export type { Skipped } from './builder.ts';
export { detectFormat } from './detect.ts';
export { isSpawnTool } from './spawn-tools.ts';
export { readPipe } from './pipe.ts';
export { listSessions, importAll, type SessionImport } from './sessions.ts';

export { importers, importTranscript, importStats } from './import-transcript.ts';
