import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { summarize } from '../../reports/summarize.ts';
import type { SuiteSummary } from '../../reports/summary/types.ts';
import { defaultSimRates, type SimRates } from '../../harness/providers/sim/rates.ts';
import type { SimOptions } from '../../harness/providers/sim/index.ts';
import { repoRoot } from './cli.ts';

/**
 * The conditions the sim-calibration tests run a suite under (issue 14, issue 27 item 8;
 * docs/decisions.md "Calibration"): the default rates; every seed-derived, fitted or chosen rate a
 * README ordering could rest on made neutral; the two context effects off; and both at once.
 */
type Sizes = NonNullable<SimOptions['sizes']>;

const large = defaultSimRates.large;
const { live: _live, latency: _latency, ...largeBehaviour } = large;

/**
 * Neutral, rate by rate: no kind of claim favoured by the summariser (summaryKeep 0.96 for every
 * kind); a labelled caveat no more salient than one in prose, and a contract slot kept as often as a
 * prose qualifier (both = answerKeepQualifier); no verification claimed without evidence in context
 * (overclaimWithoutEvidence 0: the receiver says only what its context shows); a contradiction
 * surfaced as often far apart as side by side (near = far, at their midpoint 0.575); an orchestration
 * request acted on as often reported as live (actOnReported = actOnLive).
 */
export const neutralRates: Partial<SimRates> = {
  summaryKeep: { confident: 0.96, hedged: 0.96, assumption: 0.96, unresolved: 0.96 },
  answerKeepLabelledQualifier: large.answerKeepQualifier,
  contractSlotCaveat: large.answerKeepQualifier,
  overclaimWithoutEvidence: 0,
  surfaceContradictionNear: (large.surfaceContradictionNear + large.surfaceContradictionFar) / 2,
  surfaceContradictionFar: (large.surfaceContradictionNear + large.surfaceContradictionFar) / 2,
  actOnReportedOrchestration: large.actOnLiveOrchestration,
};

/** Both context effects switched off (strength 0). */
export const noContext: Partial<SimRates> = {
  contextPosition: { ...large.contextPosition, strength: 0 },
  contextLength: { ...large.contextLength, strength: 0 },
};

/** The same overrides for both sizes (the small model keeps its own other rates). */
export const bothSizes = (rates: Partial<SimRates>): Sizes => ({ large: rates, small: rates });

/** The small model given the large one's behavioural rates (latency aside), then the overrides. */
export const equalSizes = (rates: Partial<SimRates> = {}): Sizes => ({
  large: rates,
  small: { ...largeBehaviour, ...rates },
});

/** The four conditions every calibration test runs: default, neutral, no context, and both. */
export const conditions: Record<'default' | 'neutral' | 'noContext' | 'combined', Sizes | undefined> = {
  default: undefined,
  neutral: equalSizes(neutralRates),
  noContext: bothSizes(noContext),
  combined: equalSizes({ ...neutralRates, ...noContext }),
};

/**
 * One suite run in-process (the runner and `summarize`, as `run` does, without the CLI or report
 * files) at seed 1, no cache, under the given sim rates. Deterministic: the sim draws per seed.
 */
export async function simSuite(suite: string, sizes: Sizes | undefined, reps = 3): Promise<SuiteSummary> {
  const config = resolveConfig(
    {
      casesDir: join(repoRoot, 'cases'),
      suites: [suite],
      reps,
      seed: 1,
      cache: false,
      reporters: [],
      outDir: mkdtempSync(join(tmpdir(), `he-calib-${suite}-`)),
      ...(sizes ? { sim: { sizes } } : {}),
    },
    { quiet: true },
  );
  const { rows } = await runExperiment({ config, reporters: [] });
  const errors = rows.filter((r) => r.status === 'error');
  if (errors.length) throw new Error(`${suite}: ${errors.length} cells failed: ${errors[0]!.error}`);
  return summarize(rows).suites.find((s) => s.suite === suite)!;
}
