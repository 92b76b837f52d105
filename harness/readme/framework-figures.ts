import type { ArmSummary, Summary, SuiteSummary } from '../../reports/summary/types.ts';
import type { AssertionKind } from '../core/index.ts';
import { frameworkArms } from '../config/frameworks.ts';
import {
  CAVEATS,
  int,
  num,
  signed,
  suiteOf,
  verdict,
  vs,
  type Location,
  type ReadmeFigure,
} from './format.ts';

/** The suites of the README's "What frameworks hand over" tables (frameworks.config.ts runs them). */
export const frameworkSuites = ['ledgerline', 'milk'] as const;

const LOCATIONS: readonly Location[] = ['final_message', 'mid_transcript', 'tool_result_only'];

/**
 * The rows of the README's "What frameworks hand over" tables, from a run of frameworks.config.ts:
 * per suite, the baseline and each framework arm — handoff tokens; what the handoff carries of the
 * source's claims (payload survival: confident claims, then the caveated kinds pooled, each by where
 * the source put it); and the primary criterion's difference from the baseline with its CI and verdict.
 * A row's first cell is `<suite> · \`<arm>\``.
 */
export function frameworkFigures(s: Summary): ReadmeFigure[] {
  return frameworkSuites.flatMap((id) => {
    const suite = suiteOf(s, id);
    return suite.arms
      .filter((a) => a.arm === suite.baselineArm || Object.hasOwn(frameworkArms, a.arm))
      .flatMap((a) => row(suite, a));
  });
}

/** One table row as four figures, one per cell (prettier pads the cells; a cell is read trimmed). */
function row(suite: SuiteSummary, a: ArmSummary): ReadmeFigure[] {
  const anchor = `${suite.suite} · \`${a.arm}\``;
  const by = (kinds: readonly AssertionKind[]) =>
    Object.fromEntries(LOCATIONS.map((l, i) => [`l${i}`, share(a, kinds, l)]));
  const criterion = suite.primaryCriterion ?? suite.criteria[0]!;
  let delta = `baseline (${criterion})`;
  if (a.arm !== suite.baselineArm) {
    const c = vs(a, criterion);
    delta = `${signed(c.diff!)} [${num(c.ci![0])}, ${num(c.ci![1])}] ${verdict(c)}`;
  }
  const three = '{l0} · {l1} · {l2}';
  return [
    { anchor, column: 2, template: '{tokens}', values: { tokens: int(a.tokens.handoff) } },
    { anchor, column: 3, template: three, values: by(['confident']) },
    { anchor, column: 4, template: three, values: by(CAVEATS) },
    { anchor, column: 5, template: '{delta}', values: { delta } },
  ];
}

/** Kept of total at the payload stage, pooled over kinds, at one location ('–' when none was there). */
function share(a: ArmSummary, kinds: readonly AssertionKind[], location: Location): string {
  let kept = 0;
  let total = 0;
  for (const k of kinds) {
    const c = a.survivalByLocation.payload[k]?.[location];
    kept += c?.kept ?? 0;
    total += c?.total ?? 0;
  }
  return total ? `${Math.round((100 * kept) / total)}%` : '–';
}
