import { loaderScript, unpackAll } from '../../reports/html/lazy.ts';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from '../../reports/html/escape.ts';
import { renderHtml } from '../../reports/html/page.ts';
import { summarize } from '../../reports/summarize.ts';
import { syntheticRows } from './synthetic.ts';

/**
 * Escaping where a value lands inside an attribute, checked on the markup itself (the Chromium test in
 * html-xss.test.ts is skipped where no browser is installed): a quote in an untrusted value must not
 * end the attribute and open a new one.
 */
const tags = (markup: string) => markup.match(/<[A-Za-z][^>]*>/g) ?? [];
/** Attributes of one start tag as a browser would read them (quoted values only, as the templates write them). */
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const body = tag.replace(/^<[A-Za-z][\w-]*/, '').replace(/\/?>$/, '');
  for (const m of body.matchAll(/\s*([^\s=]+)=(?:"([^"]*)"|'([^']*)')/g)) out[m[1]!] = m[2] ?? m[3]!;
  return out;
}
const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('HTML escaping inside attributes', () => {
  it('escapes all five characters that can end an attribute or open a tag', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('a value with quotes stays one attribute, double- or single-quoted, and reads back unchanged', () => {
    const dq = `x" onmouseover="alert(1)`;
    const sq = `y' onfocus='alert(2)`;
    const markup = html`<td class="${dq}" title='${sq}'>${dq}</td>`.value;
    const [tag] = tags(markup);
    const attrs = attributes(tag!);
    expect(Object.keys(attrs)).toEqual(['class', 'title']);
    expect(unescape(attrs.class!)).toBe(dq);
    expect(unescape(attrs.title!)).toBe(sq);
  });

  it('the report built from hostile names and texts has no event-handler attribute and no active element', async () => {
    const hostile = `"><svg onload="alert(1)"></svg>' onmouseover='alert(2)' <img src=x onerror="alert(3)">`;
    const rows = syntheticRows({
      seed: 3,
      cases: 2,
      reps: 1,
      arms: ['inline', `arm${hostile}`],
      suite: `suite${hostile}`,
      text: {
        seen: hostile,
        answer: hostile,
        system: hostile,
        rationale: hostile,
        evidence: hostile,
        error: hostile,
      },
    }).map((r) => ({ ...r, case_id: `case${hostile}`, strategy: hostile }));
    const page = await renderHtml(summarize(rows), rows);
    // The page without its own loader, and every case body it stores compressed (reports/html/lazy.ts).
    const bodies = unpackAll(page);
    expect(bodies.length).toBeGreaterThan(0);
    const all = [page.replace(`<script>${loaderScript}</script>`, ''), ...bodies].flatMap((h) => tags(h));
    expect(all.length).toBeGreaterThan(20);
    for (const tag of all) {
      expect(tag, tag).not.toMatch(/^<(script|img|iframe|object|embed)\b/i);
      for (const name of Object.keys(attributes(tag))) expect(name, tag).not.toMatch(/^on/i);
    }
    // The names are still there, as text.
    expect(page).toContain(escapeHtml(`arm${hostile}`));
    expect(bodies.join('')).toContain(escapeHtml(hostile));
  });
});
