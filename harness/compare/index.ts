export { compareRuns, FAMILY_NOTE } from './compare.ts';
export { loadRun, runInProgress, type LoadedRun } from './load-run.ts';
export { claimMarks, stagesOf, type ClaimMarks, type Mark } from './marks.ts';
export {
  renderCompareBody,
  renderCompareJson,
  renderCompareMd,
  cellAnchor,
  caseAnchor,
  type CellLink,
} from './render.ts';
export type * from './types.ts';
