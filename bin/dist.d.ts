/** bin/dist.js: the bundled entry (e.g. "cli" → dist/cli.js) if dist/ under `root` (the package) is current, else null. */
export function freshDist(entry: string, root?: string): string | null;
