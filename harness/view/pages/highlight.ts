import { html, type SafeHtml } from '../../../reports/html/escape.ts';

/** A claim as the highlighter matches it: the cue rule of the survival matcher, or quoted text. */
export interface Matcher {
  id: string;
  /** All must occur on one line (case-insensitive), the cue matcher's rule (harness/core/types/case.ts). */
  cues: readonly string[];
  /** Text a classifier quoted for this stage: highlighted wherever it occurs. */
  quotes: readonly string[];
}

/**
 * The text with every line that matches a claim marked. Each claim's first match gets an anchor
 * (`hl-<stage>-<claim>`) the claims table links to. Everything is escaped: the text is model output.
 */
export function highlight(
  text: string,
  matchers: readonly Matcher[],
  stage: string,
): { body: SafeHtml; found: Set<string> } {
  const found = new Set<string>();
  const lines = text.split('\n');
  const out = lines.map((line) => {
    const low = line.toLowerCase();
    const ids = matchers
      .filter(
        (m) =>
          (m.cues.length > 0 && m.cues.every((c) => low.includes(c.toLowerCase()))) ||
          m.quotes.some((q) => q.trim().length >= 8 && low.includes(q.trim().toLowerCase())),
      )
      .map((m) => m.id);
    if (ids.length === 0) return html`${line}\n`;
    const first = ids.filter((id) => !found.has(id));
    for (const id of ids) found.add(id);
    const anchors = first.map((id) => html`<span id="${`hl-${stage}-${id}`}"></span>`);
    return html`${anchors}<mark class="hl" title="${ids.join(', ')}">${line}</mark>\n`;
  });
  return { body: html`${out}`, found };
}
