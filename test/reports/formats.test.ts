import { describe, expect, it } from 'vitest';
import { summarize } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { renderCsv, csvColumns } from '../../reports/csv.ts';
import { renderJson } from '../../reports/json.ts';
import { loaderHash, loaderScript, unpackAll } from '../../reports/html/lazy.ts';
import { escapeHtml } from '../../reports/html/escape.ts';
import { renderHtml } from '../../reports/html/page.ts';
import { syntheticRows } from './synthetic.ts';

const simRows = () =>
  syntheticRows({
    seed: 5,
    cases: 5,
    reps: 2,
    arms: ['inline', 'structured-contract'],
    suite: 'ledgerline',
    criteria: ['correctness'],
  });
const realRows = () =>
  simRows().map((r) => ({
    ...r,
    provider: 'openai',
    source_model: 'openai:gpt-4o',
    receiver_model: 'openai:gpt-4o',
    judge_model: 'openai:gpt-4o',
  }));
const NOTICE = /simulated — not a measurement of any model/i;

describe('every format says a sim run is simulated, and a real run is not', () => {
  it('markdown, json, csv, html', async () => {
    const sim = simRows();
    const s = summarize(sim);
    expect(renderMarkdown(s)).toMatch(NOTICE);
    expect(JSON.parse(renderJson(s))).toMatchObject({
      simulated: true,
      notice: expect.stringMatching(NOTICE),
    });
    const csv = renderCsv(sim).trim().split('\n');
    const col = csv[0]!.split(',').indexOf('simulated');
    expect(col).toBeGreaterThan(-1);
    expect(csv.slice(1).every((line) => line.split(',')[col] === 'true')).toBe(true);
    expect(await renderHtml(s, sim)).toMatch(NOTICE);

    const real = realRows();
    const r = summarize(real);
    expect(renderMarkdown(r)).not.toMatch(NOTICE);
    expect(JSON.parse(renderJson(r))).toMatchObject({ simulated: false, notice: null });
    expect(
      renderCsv(real)
        .trim()
        .split('\n')
        .slice(1)
        .every((line) => line.split(',')[col] === 'false'),
    ).toBe(true);
    expect(await renderHtml(r, real)).not.toMatch(NOTICE);
  });
});

describe('markdown', () => {
  it('leads each suite with the seed-shaped table and keeps row text from breaking it', () => {
    const rows = simRows().map((r) => (r.arm === 'structured-contract' ? { ...r, arm: 'con|tract <b>' } : r));
    const md = renderMarkdown(summarize(rows));
    expect(md).toContain(
      '| arm | receiver window before → after | +% | window vs baseline | latency Δ (p50) | score (correctness ≥ 4) |',
    );
    expect(md).toContain('con\\|tract &lt;b&gt;');
    expect(md).not.toContain('<b>');
    expect(md).toMatch(/### Scores[\s\S]*verdict[\s\S]*MDE/);
  });

  it('brief mode keeps only the headline tables', () => {
    const md = renderMarkdown(summarize(simRows()), { brief: true });
    expect(md).toContain('receiver window before → after');
    expect(md).not.toContain('### Scores');
  });
});

describe('csv', () => {
  it('has one row per cell and the documented columns', () => {
    const rows = simRows();
    const lines = renderCsv(rows).trim().split('\n');
    expect(lines).toHaveLength(rows.length + 1);
    const header = lines[0]!.split(',');
    expect(header).toEqual(csvColumns(rows));
    for (const c of [
      'run_id',
      'suite',
      'case_id',
      'arm',
      'strategy',
      'rep',
      'status',
      'error',
      'handoff_tokens',
      'receiver_window_tokens_before',
      'receiver_window_tokens_after',
      'source_output_tokens',
      'input_tokens',
      'output_tokens',
      'cache_read_tokens',
      'latency_ms',
      'cost_usd',
      'score_correctness',
      'survival_hedged_payload',
      'survival_hedged_answer',
      'overstated_count',
      'markers_count',
    ]) {
      expect(header).toContain(c);
    }
    expect(header).not.toContain('detail');
  });
});

describe('html', () => {
  it('is one self-contained file: inline SVG charts, only the drill-down loader as script, nothing to fetch', async () => {
    const rows = simRows();
    const page = await renderHtml(summarize(rows), rows);
    expect(page.match(/<svg /g)?.length).toBeGreaterThanOrEqual(3);
    // The one script is the loader, allowed by its hash and by nothing else.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toContain(`<script>${loaderScript}</script>`);
    expect(page).toContain(escapeHtml(`script-src ${loaderHash};`));
    expect(page).not.toMatch(/unsafe-inline'[^"]*script|script-src[^;"]*unsafe/);
    expect(page.replace(loaderScript, '')).not.toMatch(/<link|<iframe|<object|<embed|@import|url\(/i);
    expect(page).not.toMatch(/\s(src|href)\s*=\s*["']?(https?:|\/\/)/i);
    // The only absolute URLs are SVG namespace identifiers, which are never fetched.
    const urls = [...page.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]);
    expect(urls.every((u) => u.startsWith('http://www.w3.org/'))).toBe(true);
    expect(page).toContain('Content-Security-Policy');
    expect(page).toMatch(/<details class="case" id="case:[^"]+" data-z="[A-Za-z0-9+/=]+">/);
  });
});

describe('html drill-down on a large run', () => {
  it('shows at most 5 reps per case × arm and says how many more are in the journal', async () => {
    const rows = syntheticRows({
      seed: 1,
      cases: 2,
      reps: 8,
      arms: ['inline', 'summary'],
      criteria: ['correctness'],
    });
    const page = unpackAll(await renderHtml(summarize(rows), rows)).join('');
    expect(page.match(/<summary>rep \d+<\/summary>/g)).toHaveLength(2 * 2 * 4);
    expect(page.match(/3 more reps in results\.jsonl/g)).toHaveLength(4);
  });
});
