/** scripts/build.mjs: bundles the CLI and benches into `out` (default dist/), one level below the package root. */
export function buildDist(out?: string): Promise<{ sources: number }>;
