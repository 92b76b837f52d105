import { appendFileSync } from 'node:fs';
import type { GateCheck, GateResult, GateVerdict } from './types.ts';

const headline: Record<GateVerdict, string> = {
  pass: 'pass',
  regression: 'REGRESSION',
  'cannot evaluate': 'cannot evaluate',
};

/** The verdict as Markdown: a headline, one table row per check, then the notes. For stdout and $GITHUB_STEP_SUMMARY. */
export function renderGateMarkdown(
  r: GateResult,
  opts: { baselineFile?: string; thresholdsFrom?: string } = {},
): string {
  const count = (v: GateVerdict) => r.checks.filter((c) => c.verdict === v).length;
  const lines = [`## handoff-eval gate: ${headline[r.verdict]}`, ''];
  const against = `baseline \`${r.baseline.runId}\`${opts.baselineFile ? ` (${opts.baselineFile})` : ''}`;
  lines.push(
    `Run \`${r.run?.runId ?? '?'}\` vs ${against} · seed ${r.baseline.seed ?? '–'} · ${r.checks.length} checks: ${count('pass')} pass, ${count('regression')} regression, ${count('cannot evaluate')} cannot evaluate`,
    '',
  );
  if (r.run?.simulated || r.baseline.simulated)
    lines.push('> Simulated — not a measurement of any model.', '');
  if (r.mismatch.length > 0) {
    lines.push(
      'The run and the baseline are not the same experiment; nothing was compared:',
      '',
      ...r.mismatch.map((m) => `- ${m}`),
      '',
    );
    lines.push(
      "Rebuild the baseline from a run of this experiment (docs/ci.md) or run with the baseline's seed, models and source mode.",
      '',
    );
  }
  if (r.checks.length > 0) {
    lines.push(
      '| suite | arm | check | baseline | current | Δ [95% CI] | threshold | verdict |',
      '| --- | --- | --- | ---: | ---: | --- | --- | --- |',
    );
    for (const c of r.checks) lines.push(row(c));
    lines.push('');
  }
  lines.push(...changedArms(r.checks));
  const t = r.thresholds;
  lines.push(
    `Thresholds${opts.thresholdsFrom ? ` (from ${opts.thresholdsFrom})` : ''}: min mean ${
      Object.entries(t.minMean)
        .map(([k, v]) => `${k} ≥ ${v}`)
        .join(', ') || '–'
    } · max drop ${t.maxDrop} (counted only when the paired 95% CI excludes 0) · max handoff-token growth ${t.maxTokenGrowthPct}% · max error rate ${pct(t.maxErrorRate)} · min cells ${t.minCells}${scoped(t)}`,
    '',
  );
  if (r.notes.length > 0) lines.push('Notes:', '', ...r.notes.map((n) => `- ${escape(n)}`), '');
  return lines.join('\n');
}

/**
 * Arms configured differently from the baseline: compared by name (the default), or not compared
 * (`--like-for-like`, cannot evaluate) — each list with what changed.
 */
function changedArms(checks: readonly GateCheck[]): string[] {
  const changed = checks.filter((c) => c.kind === 'config');
  const strict = changed.filter((c) => c.verdict === 'cannot evaluate');
  const byName = changed.filter((c) => c.verdict !== 'cannot evaluate');
  const list = (cs: GateCheck[]) =>
    cs.map((c) => `- ${escape(`${c.suite}/${c.arm}: ${c.reason.replace(/^[^:]*: /, '')}`)}`);
  const out: string[] = [];
  if (byName.length > 0)
    out.push(
      'Changed since the baseline — configured differently, compared with the baseline arm of the same name (a drop beyond noise is a regression; `gate --like-for-like` refuses to compare them instead):',
      '',
      ...list(byName),
      '',
    );
  if (strict.length > 0)
    out.push(
      'Not like-for-like with the baseline — configured differently, so not compared (--like-for-like; cannot evaluate):',
      '',
      ...list(strict),
      '',
    );
  return out;
}

/** The scoped thresholds, as configured (each check's row shows the limit it was held to). */
function scoped(t: GateResult['thresholds']): string {
  const parts = [
    ...Object.entries(t.suites ?? {}).map(([id, v]) => `suites.${id} ${JSON.stringify(v)}`),
    ...Object.entries(t.arms ?? {}).map(([id, v]) => `arms.${id} ${JSON.stringify(v)}`),
  ];
  return parts.length ? ` · scoped: ${parts.join(' · ')}` : '';
}

/** Appends (never overwrites) to the file GitHub Actions names in $GITHUB_STEP_SUMMARY. */
export function appendStepSummary(file: string, markdown: string): void {
  appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

function row(c: GateCheck): string {
  const cells = [
    c.suite,
    c.arm,
    label(c),
    value(c, c.baseline),
    value(c, c.current),
    delta(c),
    threshold(c),
    verdict(c),
  ];
  return `| ${cells.map(escape).join(' | ')} |`;
}

function label(c: GateCheck): string {
  switch (c.kind) {
    case 'error-rate':
      return 'error rate';
    case 'token-growth':
      return 'handoff tokens (mean)';
    case 'min-mean':
      return `${c.criterion} (mean)`;
    case 'drop':
      return `${c.criterion} (drop)`;
    case 'coverage':
      return c.criterion ? `${c.criterion} (scored)` : 'cells';
    case 'config':
      return 'strategy, params, models';
    case 'scope':
      return 'scoped threshold';
  }
}

function value(c: GateCheck, x: number | null): string {
  if (x === null) return '–';
  if (c.kind === 'error-rate') return pct(x);
  if (c.kind === 'token-growth' || c.kind === 'coverage')
    return c.kind === 'coverage' && c.criterion ? x.toFixed(2) : String(Math.round(x));
  return x.toFixed(2);
}

function delta(c: GateCheck): string {
  if (c.delta === null) return '–';
  if (c.kind === 'token-growth') return Number.isFinite(c.delta) ? `${signed(c.delta, 1)}%` : '+∞%';
  if (c.kind === 'error-rate') return `${signed(c.delta * 100, 1)} pp`;
  return c.ci ? `${signed(c.delta, 2)} [${plain(c.ci[0])}, ${plain(c.ci[1])}]` : signed(c.delta, 2);
}

function threshold(c: GateCheck): string {
  if (c.limit === null) return '–';
  switch (c.kind) {
    case 'error-rate':
      return `≤ ${pct(c.limit)}`;
    case 'token-growth':
      return `≤ ${signed(c.limit, 0)}%`;
    case 'min-mean':
      return `≥ ${c.limit.toFixed(2)}`;
    case 'drop':
      return `drop ≤ ${c.limit}, beyond noise`;
    default:
      return '–';
  }
}

function verdict(c: GateCheck): string {
  const v = c.verdict === 'pass' ? 'pass' : `**${c.verdict}**`;
  return `${v} — ${c.reason}`;
}

/** Sign by the rounded value, so a difference that rounds to zero shows no sign. */
const signed = (x: number, digits: number) => {
  const r = Math.abs(x).toFixed(digits);
  return `${Number(r) === 0 ? '' : x > 0 ? '+' : '−'}${r}`;
};
const plain = (x: number) => (x < 0 ? signed(x, 2) : Math.abs(x).toFixed(2));
const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.1 ? 1 : 0)}%`;
const escape = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
