import { syntheticRows } from './synthetic.ts';

/**
 * The XSS corpus: payloads that execute if any text field reaches a page unescaped, and result rows
 * carrying them in every text field, id and name (report.html, the viewer and the compare page are all
 * run through it). `hit(n)` records which payload ran.
 */
export const hit = (n: number) => `window.__pwned=(window.__pwned||[]).concat(${n})`;
export const payloads = [
  `<script>${hit(1)};document.title='PWNED'</script>`,
  `<img src=x onerror="${hit(2)}">`,
  `"><svg onload="${hit(3)}"></svg>`,
  `</pre></details><script>${hit(4)}</script>`,
  `<iframe srcdoc="<script>parent.${hit(5)}</script>"></iframe>`,
  `'><body onload='${hit(6)}'>`,
].join('\n');

export function hostileRows() {
  return syntheticRows({
    seed: 9,
    cases: 2,
    reps: 2,
    arms: ['inline', `arm<img src=x onerror="${hit(7)}">`],
    suite: `suite<script>${hit(8)}</script>`,
    text: {
      seen: payloads,
      answer: payloads,
      system: payloads,
      rationale: payloads,
      evidence: payloads,
      error: payloads,
    },
  }).map((r, i) => ({
    ...r,
    case_id: i < 4 ? `case<script>${hit(9)}</script>` : r.case_id,
    strategy: `<img src=x onerror="${hit(10)}">`,
    detail: { ...r.detail!, artifacts: { summary: payloads } },
  }));
}
