import type { Summary } from './summarize.ts';

export const simNotice = '> **Simulated — not a measurement of any model.** This run used the deterministic `sim` provider: its numbers show what each strategy renders into a context under documented behavioural rates (harness/providers/sim/rates.ts).';

const fmt = (x: number | null, digits = 2) => (x === null ? '–' : x.toFixed(digits));

export function renderMarkdown(s: Summary): string {
  const out: string[] = [`# handoff-eval report — ${s.runId}`, ''];
  if (s.simulated) out.push(simNotice, '');
  out.push(`${s.cells} cells, ${s.errors} errors.`, '');
  for (const suite of [...new Set(s.arms.map((a) => a.suite))]) {
    const arms = s.arms.filter((a) => a.suite === suite);
    const crit = s.criteria.filter((c) => arms.some((a) => a.scores[c]));
    out.push(`## ${suite}`, '');
    out.push(`| arm | strategy | cells | ok | errors | handoff tokens | latency ms | ${crit.join(' | ')} |`);
    out.push(`|---|---|---:|---:|---:|---:|---:|${crit.map(() => '---:|').join('')}`);
    for (const a of arms) {
      const scores = crit.map((c) => fmt(a.scores[c]?.mean ?? null));
      out.push(`| ${a.arm}${a.baseline ? ' (baseline)' : ''} | ${a.strategy} | ${a.cells} | ${a.ok} | ${a.errors} | ${fmt(a.meanHandoffTokens, 0)} | ${fmt(a.meanLatencyMs, 0)} | ${scores.join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
