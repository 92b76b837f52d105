// A StrykerJS checker plugin for `npm run mutate:sample` (scripts/mutation-sample.mjs): it passes the
// drawn mutants and turns every other one away as a "compile error", so Stryker tests only the sample.
// (Mutation ranges cannot do this: a range that holds a drawn mutant holds every mutant nested in it,
// and a drawn function-body mutant would bring the whole function along.) Mutants turned away are
// not valid mutants in Stryker's score, and mutation-sample.mjs counts the drawn ones only.
import { readFileSync } from 'node:fs';
import { CheckStatus } from '@stryker-mutator/api/check';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** A mutant's identity as the instrumenter gives it (0-based lines and columns), path relative to the repo. */
export const sampleKey = (relativeFile, m) =>
  [
    relativeFile.replaceAll('\\', '/'),
    m.mutatorName,
    m.replacement,
    m.location.start.line,
    m.location.start.column,
    m.location.end.line,
    m.location.end.column,
  ].join('|');

class SampleChecker {
  static inject = [];
  drawn = new Set();
  files = [];

  async init() {
    const file = process.env.MUTATION_SAMPLE;
    if (!file) throw new Error('sample checker: MUTATION_SAMPLE (the drawn mutants, a JSON file) is not set');
    const { files, keys } = JSON.parse(readFileSync(file, 'utf8'));
    this.files = files;
    this.drawn = new Set(keys);
  }

  async check(mutants) {
    const out = {};
    for (const m of mutants) {
      const name = m.fileName.replaceAll('\\', '/');
      const rel = this.files.find((f) => name === f || name.endsWith(`/${f}`));
      out[m.id] =
        rel && this.drawn.has(sampleKey(rel, m))
          ? { status: CheckStatus.Passed }
          : { status: CheckStatus.CompileError, reason: 'not in the sample' };
    }
    return out;
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Checker, 'sample', SampleChecker)];
