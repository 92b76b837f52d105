/**
 * Natural order for arm and case names: digit runs compare as numbers, so `summary[n=1]` sorts before
 * `summary[n=10]` and `case-2` before `case-10`. One collator, so every page sorts alike.
 */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Names in natural order with `first` (a baseline arm) leading when present. */
export function naturalOrder(names: Iterable<string>, first?: string | null): string[] {
  return [...new Set(names)].sort((a, b) => (a === first ? -1 : b === first ? 1 : naturalCompare(a, b)));
}
