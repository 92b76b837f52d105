/**
 * Splitting what the receiver saw (a row's `detail.seen`) into the receiver's own history — the same in
 * every arm — and the handed-over part, so a cell page can show the part that differs first. With the
 * case's history text the split is exact; without it (the cases folder is gone) it is estimated as the
 * longest start the cell shares with the other arms of its case. A row keeps a bounded view of `seen`
 * (head, an omission marker, tail: harness/runner/cell-views.ts); the split accounts for it.
 */
export interface SeenParts {
  handed: string;
  history: string;
  how: 'exact' | 'estimated' | 'none';
}

const MARKER = /\n… \((\d+) characters omitted from this view\) …\n/;

export function splitSeen(seen: string, historyText: string | null, others: readonly string[]): SeenParts {
  if (historyText === '') return { handed: seen, history: '', how: 'exact' };
  if (historyText !== null) {
    const exact = splitAt(seen, historyText.length, (head) =>
      historyText.startsWith(head.slice(0, historyText.length)),
    );
    if (exact) return { ...exact, how: 'exact' };
  }
  const differing = others.filter((o) => o !== seen);
  if (differing.length === 0) return { handed: seen, history: '', how: 'none' };
  let shared = Infinity;
  for (const o of differing) {
    const n = commonPrefix(seen, o);
    if (n > 0) shared = Math.min(shared, n);
  }
  if (!Number.isFinite(shared) || shared === 0) return { handed: seen, history: '', how: 'none' };
  const m = MARKER.exec(seen);
  if (m && shared >= m.index) {
    // The shared start runs into the omission: the handed-over part is in the tail.
    const tailAt = m.index + m[0].length;
    return { handed: seen.slice(tailAt), history: seen.slice(0, tailAt), how: 'estimated' };
  }
  const cut = seen.lastIndexOf('\n\n[', shared);
  const at = cut > 0 ? cut : shared;
  return { handed: seen.slice(at).replace(/^\n+/, ''), history: seen.slice(0, at), how: 'estimated' };
}

/** Cut a (possibly bounded) seen text at `start` characters of the full text. */
function splitAt(
  seen: string,
  start: number,
  headMatches: (head: string) => boolean,
): Omit<SeenParts, 'how'> | null {
  const m = MARKER.exec(seen);
  if (!m) {
    if (!headMatches(seen) || seen.length < start) return null;
    return { history: seen.slice(0, start), handed: seen.slice(start).replace(/^\n+/, '') };
  }
  const head = seen.slice(0, m.index);
  const tail = seen.slice(m.index + m[0].length);
  if (!headMatches(head)) return null;
  const full = head.length + tail.length + Number(m[1]);
  const tailStart = full - tail.length;
  if (start <= head.length)
    return {
      history: head.slice(0, start),
      handed: `${head.slice(start).replace(/^\n+/, '')}${m[0]}${tail}`,
    };
  if (start >= tailStart)
    return {
      history: `${head}${m[0]}${tail.slice(0, start - tailStart)}`,
      handed: tail.slice(start - tailStart).replace(/^\n+/, ''),
    };
  // The start of the handed-over part is itself in the omitted middle.
  return { history: head, handed: `${m[0].trim()}\n${tail}` };
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
