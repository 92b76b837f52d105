/**
 * The CI gate and sharded runs (docs/ci.md): make a baseline from a run, gate a run against it,
 * merge shard runs into one. Library code returns verdicts; only the CLI sets exit codes.
 */
export {
  BASELINE_SCHEMA,
  createBaseline,
  identityOf,
  parseBaseline,
  renderBaseline,
  type Baseline,
  type BaselineArm,
  type BaselineCriterion,
  type BaselineSuite,
  type RunIdentity,
} from './baseline.ts';
export {
  compareIdentity,
  evaluateGate,
  type GateOptions,
  overall,
  type GateCheck,
  type GateCheckKind,
  type GateResult,
  type GateVerdict,
} from './gate.ts';
export { resolveGateThresholds, type ResolvedGateThresholds } from '../config/gate-thresholds.ts';
export { appendStepSummary, renderGateMarkdown } from './markdown.ts';
export {
  checkSameExperiment,
  experimentFields,
  mergeRuns,
  type MergeOptions,
  type MergeOutcome,
} from './merge.ts';
export { readRunFiles, readCalls, type RunFiles } from './run-files.ts';
