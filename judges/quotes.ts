/**
 * Whether a judge's quote is in the text it was asked to read. A judge model's quote is its evidence:
 * a mark or score that cites words the text does not hold is not a reading of that text. Case,
 * runs of whitespace, typographic quotes, apostrophes and dashes, and the quotation marks or ellipses
 * around the quote are not held against it; an ellipsis inside it ("A … B") elides text, so each part
 * must be found, in order. An empty quote is never found.
 */
export function quoteFound(quote: string, text: string): boolean {
  const parts = fold(quote)
    .split(/\s*(?:…|\.{3})\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return false;
  const hay = fold(text);
  let from = 0;
  for (const p of parts) {
    const at = hay.indexOf(p, from);
    if (at < 0) return false;
    from = at + p.length;
  }
  return true;
}

function fold(t: string): string {
  return t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’‛′]/g, "'")
    .replace(/[“”‟″]/g, '"')
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'`]+|[\s"'`]+$/g, '')
    .trim();
}
