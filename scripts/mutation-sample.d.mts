/** scripts/mutation-sample.mjs: a module's mutation score estimated from a random sample of its mutants. */
export function moduleFiles(patterns: string[], root?: string): string[];
export function wilson(k: number, n: number): [number, number];
