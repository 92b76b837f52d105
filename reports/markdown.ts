import { assertionKinds } from '../harness/types.ts';
import type { ArmSummary, Summary, SuiteSummary } from './summary/types.ts';
import * as f from './format.ts';
import { liveArms, liveHeaders, liveRows, liveSimLines } from './live-section.ts';
import { sweepSections } from './markdown-sweeps.ts';

/** The Markdown report: for reviewers and PR comments. Renders a Summary; computes nothing. */

export const simNotice =
  '> **Simulated — not a measurement of any model.** This run used the deterministic `sim` provider: its numbers show what each strategy renders into a context under documented behavioural rates (harness/providers/sim/rates.ts).';

/** Text from rows (arm names, error codes) cannot break a table or inject markup. */
export function mdCell(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n/g, ' ');
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const align = (spec: string) => row(spec.split('').map((c) => (c === 'r' ? '---:' : '---')));
const armLabel = (a: ArmSummary) => `${mdCell(a.arm)}${a.baseline ? ' (baseline)' : ''}`;

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
          `**${v.verdict}**`,
          f.mde(v),
        ]),
      );
    }
  }
  return [...lines, '', f.intervalNote, ''];
}

function usageTable(suite: SuiteSummary): string[] {
  const lines = [
    '### Tokens, latency, cost (means over ok cells; cached calls: served by the response cache / all)',
    '',
  ];
  lines.push(
    row([
      'arm',
      'handoff tokens',
      'vs baseline',
      'source output tokens',
      'window before',
      'window after',
      'latency p50',
      'latency p95',
      'cost $',
      'judge $',
      'cached calls',
    ]),
  );
  lines.push(align('lrrrrrrrrrr'));
  for (const a of suite.arms) {
    lines.push(
      row([
        armLabel(a),
        f.int(a.tokens.handoff),
        a.baseline ? f.dash : f.signedPct(a.tokens.handoffVsBaselinePct),
        f.int(a.tokens.sourceOutput),
        f.int(a.tokens.windowBefore),
        f.int(a.tokens.windowAfter),
        f.seconds(a.latency.p50),
        f.seconds(a.latency.p95),
        a.cost.usd.toFixed(4),
        a.cost.judgeUsd.toFixed(4),
        f.cachedCalls(a),
      ]),
    );
  }
  return [...lines, ''];
}

function survivalTable(suite: SuiteSummary): string[] {
  const kinds = f.kindsPresent(suite.arms, assertionKinds);
  if (kinds.length === 0) return [];
  const lines = [`### ${f.survivalHeading}`, ''];
  lines.push(row(['arm', 'kind', 'in payload', 'in answer', 'overstated in answer']));
  lines.push(align('llrrr'));
  for (const a of suite.arms) {
    for (const k of kinds) {
      const ans = a.survival.answer[k];
      const over = a.survival.source === 'marks' && ans ? `${ans.overstated}/${ans.total}` : f.dash;
      lines.push(
        row([
          armLabel(a),
          k,
          f.survivalText(a.survival.payload[k], a.survival.source),
          f.survivalText(ans, a.survival.source),
          over,
        ]),
      );
    }
  }
  return [...lines, ''];
}

/** Survival by kind × where the source put the claim: why an arm that passes only the end of a session loses caveats. */
function locationTable(suite: SuiteSummary): string[] {
  const rows = f.locationRows(suite.arms);
  if (rows.length === 0) return [];
  const lines = [
    '### Survival by kind × claim location (kept with its qualifier: payload → answer)',
    '',
    row(['kind · location', 'n', ...suite.arms.map(armLabel)]),
    align(`lr${'r'.repeat(suite.arms.length)}`),
  ];
  for (const r of rows) lines.push(row([r.label, r.n, ...r.cells]));
  return [...lines, ''];
}

/** Deterministic checks: how many ok cells failed each (e.g. a child acting on the parent's orchestration request). */
function checksTable(suite: SuiteSummary): string[] {
  const names = checkNames(suite);
  if (names.length === 0) return [];
  const lines = ['### Deterministic checks (failed / ok cells)', ''];
  lines.push(row(['arm', ...names.map(mdCell)]));
  lines.push(align(`l${'r'.repeat(names.length)}`));
  for (const a of suite.arms) lines.push(row([armLabel(a), ...names.map((n) => f.checkText(a.checks[n]))]));
  return [...lines, ''];
}

export function checkNames(suite: SuiteSummary): string[] {
  return [...new Set(suite.arms.flatMap((a) => Object.keys(a.checks)))].sort();
}

function judgeSection(suite: SuiteSummary): string[] {
  const j = suite.judge;
  const unscored =
    Object.entries(j.unscored)
      .map(([c, n]) => `${mdCell(c)} ${n}`)
      .join(', ') || 'none';
  const lines = [
    '### Judge reliability',
    '',
    `- unscored judgements (judge errors, counted, never 0): ${j.errors} — ${unscored}`,
    ...Object.entries(j.unlabelled).flatMap(([c, reasons]) =>
      Object.entries(reasons).map(
        ([why, n]) =>
          `- not judged for want of labels: ${mdCell(c)} on ${f.plural(n, 'cell')} — ${mdCell(why)}`,
      ),
    ),
    `- samples per cell: ${j.samples}`,
  ];
  if (j.agreement) {
    for (const [c, a] of Object.entries(j.agreement)) lines.push(`- ${mdCell(c)}: ${f.agreementText(a)}`);
  } else lines.push(`- agreement: not reported — ${mdCell(j.gap ?? '')}`);
  if (j.survival) lines.push(`- survival: ${f.survivalAgreementText(j.survival)}`);
  const errs = suite.arms
    .filter((a) => a.errors > 0)
    .map(
      (a) =>
        `${mdCell(a.arm)}: ${Object.entries(a.errorCodes)
          .map(([c, n]) => `${mdCell(c)} × ${n}`)
          .join(', ')}`,
    );
  if (errs.length) lines.push('', '### Cell errors', '', ...errs.map((e) => `- ${e}`));
  return [...lines, ''];
}
