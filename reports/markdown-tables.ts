import { assertionKinds } from '../harness/core/index.ts';
import type { SuiteSummary } from './summary/types.ts';
import * as f from './format.ts';
import { align, armLabel, mdCell, row } from './markdown-cells.ts';

/** The lower tables of a suite's section in report.md: usage, survival, checks, judge reliability. */

export function usageTable(suite: SuiteSummary): string[] {
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
    lines.push(row([armLabel(a), ...f.tokenCells(a)]));
  }
  return [...lines, ''];
}

export function survivalTable(suite: SuiteSummary): string[] {
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
export function locationTable(suite: SuiteSummary): string[] {
  const rows = f.locationRows(suite.arms);
  if (rows.length === 0) return [];
  const lines = [
    '### Survival by kind × claim location (kept with its qualifier: payload → answer)',
    '',
    row(['kind · location', 'n', ...suite.arms.map(armLabel)]),
    align(`lr${'r'.repeat(suite.arms.length)}`),
  ];
  for (const r of rows) lines.push(row([r.label, r.n, ...r.cells]));
  const notMade = f.notMadeText(suite.judge.reading);
  return [...lines, ...(notMade ? ['', notMade] : []), ''];
}

/** Deterministic checks: how many ok cells failed each (e.g. a child acting on the parent's orchestration request). */
export function checksTable(suite: SuiteSummary): string[] {
  const names = checkNames(suite);
  if (names.length === 0) return [];
  const lines = ['### Deterministic checks (failed / ok cells)', ''];
  lines.push(row(['arm', ...names.map((n) => mdCell(f.checkLabel(suite, n)))]));
  lines.push(align(`l${'r'.repeat(names.length)}`));
  for (const a of suite.arms) lines.push(row([armLabel(a), ...names.map((n) => f.checkText(a.checks[n]))]));
  const note = f.cueBasedNote(suite);
  return [...lines, ...(note ? ['', note] : []), ''];
}

export function checkNames(suite: SuiteSummary): string[] {
  return [...new Set(suite.arms.flatMap((a) => Object.keys(a.checks)))].sort();
}

export function judgeSection(suite: SuiteSummary): string[] {
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
  for (const l of f.survivalReadingLines(j.reading)) lines.push(`- ${mdCell(l)}`);
  const errs = suite.arms
    .filter((a) => a.errors > 0)
    .map(
      (a) =>
        `${mdCell(a.arm)}: ${Object.entries(a.errorCodes)
          .map(([c, n]) => `${mdCell(c)} × ${n}`)
          .join(', ')}`,
    );
  if (errs.length) lines.push('', '### Cell errors', '', ...errs.map((e) => `- ${e}`));
  const cut = suite.arms.filter((a) => a.truncated);
  if (cut.length)
    lines.push(
      '',
      '### Answers cut at max_tokens',
      '',
      ...cut.map((a) => {
        const t = a.truncated!;
        const roles = Object.entries(t.byRole)
          .map(([r, n]) => `${mdCell(r)} × ${n}`)
          .join(', ');
        const budget = t.allowed
          ? 'allowed by the arm (allowTruncation)'
          : 'counted against the error budget';
        return `- ${mdCell(a.arm)}: ${t.cells} of ${a.cells} cells (${roles}); ${budget}`;
      }),
    );
  return [...lines, ''];
}
