import { agreementHeaders, agreementRows, handLabelLine, type HandLabelSummary } from './hand-labels.ts';
import { assertionKinds } from '../harness/core/index.ts';
import type { Summary, SuiteSummary } from './summary/types.ts';
import * as f from './format.ts';
import { liveArms, liveHeaders, liveNotes, liveRows, liveSimLines } from './live-section.ts';
import { sweepSections } from './markdown-sweeps.ts';
import { align, armLabel, mdCell, row } from './markdown-cells.ts';
import { usageTable, survivalTable, locationTable, checksTable, judgeSection } from './markdown-tables.ts';

export { mdCell } from './markdown-cells.ts';

/** The Markdown report: for reviewers and PR comments. Renders a Summary; computes nothing. */

export const simNotice =
  '> **Simulated — not a measurement of any model.** This run used the deterministic `sim` provider: its numbers show what each strategy renders into a context under documented behavioural rates (harness/providers/sim/rates.ts).';

export function renderMarkdown(s: Summary, opts: { brief?: boolean } = {}): string {
  const out: string[] = [`# handoff-eval report — ${mdCell(s.runId)}`, ''];
  if (s.simulated) out.push(simNotice, '');
  out.push(
    `${s.cells} cells (${s.ok} ok, ${s.errors} errors) · receiver ${s.models.receiver.map(mdCell).join(', ')} · judge ${s.models.judge.map(mdCell).join(', ')} · seed ${s.seed ?? f.dash} · harness ${mdCell(s.harnessVersion)}`,
    '',
  );
  if (s.liveSim) out.push(...liveSimLines(s.liveSim).map((l) => `> ${mdCell(l)}`), '');
  for (const suite of s.suites) {
    out.push(...headline(suite), ...liveTable(suite, !opts.brief));
    if (opts.brief) continue;
    out.push(
      ...scoreTable(suite),
      ...comparisonTable(suite),
      ...usageTable(suite),
      ...survivalTable(suite),
      ...locationTable(suite),
      ...checksTable(suite),
      ...sweepSections(suite, mdCell, row),
      ...judgeSection(suite),
    );
  }
  if (s.handLabels && !opts.brief) out.push(...handLabelSection(s.handLabels));
  if (!opts.brief)
    out.push(
      '## Method',
      '',
      ...Object.entries(s.method).map(([k, v]) => `- **${k}**: ${typeof v === 'number' ? v : mdCell(v)}`),
      '',
    );
  return out.join('\n');
}

/** The seed-shaped table: window before → after, +%, latency Δ, score, survival by kind, overstated runs. */
function headline(suite: SuiteSummary): string[] {
  const base = suite.baselinePresent
    ? `baseline \`${mdCell(suite.baselineArm)}\``
    : `baseline \`${mdCell(suite.baselineArm)}\` not in this run`;
  const kinds = f.kindsPresent(suite.arms, assertionKinds);
  const lines = [
    `## ${mdCell(suite.suite)} — ${f.plural(suite.cases, 'case')} × ${f.plural(suite.reps, 'rep')}, ${base}, ${f.labels(suite)}`,
    '',
  ];
  lines.push(
    row([
      'arm',
      'receiver window before → after',
      '+%',
      'window vs baseline',
      'latency Δ (p50)',
      `score (${mdCell(suite.primaryCriterion ?? '–')} ≥ 4)`,
      `answer survival (${kinds.join(' · ') || 'no labelled assertions'})`,
      'overstated runs',
      'errors',
    ]),
  );
  lines.push(align('lrrrrrlrr'));
  for (const a of suite.arms) {
    const surv = kinds.map((k) => f.pct(a.survival.answer[k]?.rate ?? null)).join(' · ') || f.dash;
    lines.push(
      row([
        armLabel(a),
        f.windowBeforeAfter(a),
        f.signedPct(a.tokens.windowGrowthPct),
        a.baseline ? f.dash : f.signedPct(a.tokens.windowAfterVsBaselinePct),
        a.baseline ? f.dash : f.seconds(a.latency.p50DeltaVsBaselineMs, true),
        f.passText(a),
        surv,
        f.overstatedText(a),
        `${a.errors}/${a.cells}`,
      ]),
    );
  }
  return [...lines, ''];
}

/** Live mode: the source's effort, budget, end-to-end latency and the receiver's span fetches per arm. */
function liveTable(suite: SuiteSummary, full: boolean): string[] {
  if (liveArms(suite).length === 0) return [];
  const headers = liveHeaders(suite, full);
  return [
    `### Live source (tool loop over each case's world)`,
    '',
    row(headers),
    align(`l${'r'.repeat(headers.length - 1)}`),
    ...liveRows(suite, full, armLabel).map(row),
    '',
    ...liveNotes(suite, armLabel).flatMap((note) => [note, '']),
  ];
}

function scoreTable(suite: SuiteSummary): string[] {
  const lines = ['### Scores (1–5): mean [95% CI] per arm', ''];
  lines.push(row(['criterion', 'arm', 'n', 'mean [95% CI]', 'unscored']));
  lines.push(align('llrlr'));
  for (const c of suite.criteria) {
    for (const a of suite.arms) {
      const s = a.scores[c];
      if (!s) continue;
      lines.push(row([mdCell(c), armLabel(a), String(s.n), f.meanCi(s), f.unscoredText(s)]));
    }
  }
  // The note on clipped intervals follows the comparisons when there are any, else this table.
  const compared = suite.families.primary || suite.families.secondary;
  return [...lines, '', ...(compared ? [] : [f.intervalNote, ''])];
}

/** Every comparison with the baseline: its family, the pairs it used, both means over them, the test, the verdict. */
function comparisonTable(suite: SuiteSummary): string[] {
  const fams = [suite.families.primary, suite.families.secondary].filter((x) => x !== null);
  if (fams.length === 0) return [];
  const lines = [
    `### Paired differences vs \`${mdCell(suite.baselineArm)}\``,
    '',
    ...fams.map((x) => `- **${mdCell(f.familyText(x))}**`),
    '',
  ];
  lines.push(
    row([
      'family',
      'criterion',
      'arm',
      'pairs',
      'means over the pairs (arm vs baseline)',
      'Δ [95% CI]',
      'test',
      'p (Holm)',
      'verdict',
      'MDE (80% power, α/m)',
    ]),
  );
  lines.push(align('lllrlllrlr'));
  for (const c of suite.criteria) {
    for (const a of suite.arms) {
      const v = a.scores[c]?.vsBaseline;
      if (!v) continue;
      lines.push(
        row([
          v.family.name,
          mdCell(c),
          armLabel(a),
          f.pairsText(v),
          f.pairedMeans(v),
          f.diffCi(v),
          f.testName(v),
          f.pValue(v.pHolm),
          `**${v.verdict}**${v.confound ? ` — ⚠ ${mdCell(v.confound.short)}` : ''}`,
          f.mde(v),
        ]),
      );
    }
  }
  return [...lines, '', ...confoundLines(suite), f.intervalNote, ''];
}

/** Live: the arms whose source did different work than the baseline's (docs/live.md#confounds). */
function confoundLines(suite: SuiteSummary): string[] {
  const lines = suite.arms
    .filter((a) => a.live?.sourceVsBaseline?.declared)
    .map((a) => `- ⚠ ${armLabel(a)}: ${mdCell(a.live!.sourceVsBaseline!.statement)}.`);
  return lines.length
    ? [
        '**Confounds declared** (the arm changed the live source\u2019s own work; docs/live.md#confounds):',
        '',
        ...lines,
        '',
      ]
    : [];
}

/** A person's labels against the classifier, Cohen's κ per stage (reports/hand-labels.ts). */
function handLabelSection(h: HandLabelSummary): string[] {
  const rows = agreementRows(h.agreement);
  return [
    '## Hand labels: person vs classifier',
    '',
    handLabelLine(h),
    '',
    ...(rows.length
      ? [
          `| ${agreementHeaders.join(' | ')} |`,
          `| --- | --- | ---: | ---: | ---: |`,
          ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
          '',
        ]
      : []),
  ];
}
