/** scripts/mutation-modules.mjs: the modules `npm run mutate` measures, and the tests that cover each. */
export interface MutationModule {
  mutate: string[];
  tests: string[];
  skip?: string[];
}
export const MODULES: Record<string, MutationModule>;
