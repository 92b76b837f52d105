/**
 * The o200k_base pre-tokenizer for ASCII text, by hand: where the next piece of `text` at `i` ends,
 * decided exactly as the pattern in o200k.ts decides it (its seven alternatives, in order, with their
 * greedy runs and backtracking), without the regex engine and its match objects. It returns -1 when
 * the decision would look at a character that is not ASCII; the caller runs the regex for that piece,
 * so nothing here has to agree with Unicode's letter, number or space classes.
 *
 * ASCII classes of the pattern: L = [A-Za-z] (Lu upper, Ll lower; ASCII has no Lt, Lm, Lo or M),
 * N = [0-9], \s = [\t\n\v\f\r ] (JavaScript's; \x1c–\x1f are not spaces), and "other" is the rest.
 */

const END = 0; // past the end of the text
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const NEWLINE = 4; // \r \n
const SPACE = 5; // \t \v \f ' '
const OTHER = 6;
const NOT_ASCII = -1;

const classes = new Int8Array(128).map((_, c) =>
  c >= 65 && c <= 90
    ? UPPER
    : c >= 97 && c <= 122
      ? LOWER
      : c >= 48 && c <= 57
        ? DIGIT
        : c === 10 || c === 13
          ? NEWLINE
          : c === 9 || c === 11 || c === 12 || c === 32
            ? SPACE
            : OTHER,
);

function cls(text: string, k: number): number {
  if (k >= text.length) return END;
  const c = text.charCodeAt(k);
  return c < 128 ? classes[c]! : NOT_ASCII;
}

/** The end of the piece that starts at i, or -1 if deciding it needs a character that is not ASCII. */
export function asciiPieceEnd(text: string, i: number): number {
  const c0 = cls(text, i);
  // 1–2: an optional prefix (anything but \r, \n, a letter or a digit), letters, a contraction.
  const prefixed = c0 === SPACE || c0 === OTHER;
  const first = prefixed ? cls(text, i + 1) : c0;
  if (first === NOT_ASCII) return -1; // c0 itself, or what follows a prefix, could be a letter
  if (first === UPPER || first === LOWER) {
    let k = prefixed ? i + 1 : i;
    let c = first;
    while (c === UPPER) c = cls(text, ++k); // Upper*, then Lower+ (1); without a lower, Upper+ alone (2)
    while (c === LOWER) c = cls(text, ++k);
    if (c === NOT_ASCII) return -1;
    return contractionEnd(text, k);
  }
  // 3: one to three digits.
  if (c0 === DIGIT) {
    let k = i + 1;
    let c = cls(text, k);
    while (k < i + 3 && c === DIGIT) c = cls(text, ++k);
    return k < i + 3 && c === NOT_ASCII ? -1 : k; // a non-ASCII character might be a \p{N}
  }
  // 4: an optional ' ', "other" characters, then any \r, \n or '/'.
  const space = text.charCodeAt(i) === 32;
  if (c0 === OTHER || (space && first === OTHER)) {
    let k = c0 === OTHER ? i : i + 1;
    let c = cls(text, k);
    while (c === OTHER) c = cls(text, ++k);
    while (c === NEWLINE || (c === OTHER && text.charCodeAt(k) === 47)) c = cls(text, ++k);
    return c === NOT_ASCII ? -1 : k;
  }
  // 5–7: whitespace; first the maximal run [i, k).
  let k = i;
  let lastNewline = -1;
  let c = c0;
  for (; c === SPACE || c === NEWLINE; c = cls(text, ++k)) if (c === NEWLINE) lastNewline = k;
  if (c === NOT_ASCII) return -1;
  if (lastNewline >= 0) return lastNewline + 1; // 5: \s*[\r\n]+ ends after the run's last newline
  if (c === END) return k; // 6: \s+(?!\S) at the end of the text
  if (k - i > 1) return k - 1; // 6: the last space is left to prefix what follows
  return k; // 7: \s+
}

/**
 * After letters ending at `end`: 's 'd 'm 't 'll 've 're (either case) belong to the piece. `| 0x20`
 * lowercases exactly A–Z here; no other code unit (none past ASCII either) lands on these letters.
 */
function contractionEnd(text: string, end: number): number {
  if (text.charCodeAt(end) !== 39) return end;
  const a = text.charCodeAt(end + 1) | 0x20;
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return end + 2; // s d m t
  const b = text.charCodeAt(end + 2) | 0x20;
  return (a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)
    ? end + 3
    : end; // ll ve re
}
