import type { CommandModule } from 'yargs';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { HarnessError, InputError } from '../../errors.ts';
import { loadConfig } from '../../config/load-config.ts';
import { findCaseFiles, loadSuite, loadSuites, toCase } from '../../../cases/load.ts';
import { checkScopeNames } from '../../gate/scopes.ts';
import { caseWarnings } from '../../../cases/case-warnings.ts';
import type { Case, Suite } from '../../types.ts';
import { getStrategy } from '../../../strategies/index.ts';
import { resolveParams } from '../../../strategies/define.ts';
import { readText } from '../../text/read-text.ts';

interface ValidateArgs {
  paths: string[];
  config?: string;
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate [paths..]',
  describe: 'Check the config, suites and case files; name the file and the field of every problem',
  builder: (y) =>
    y
      .positional('paths', {
        type: 'string',
        array: true,
        describe: 'config files, suite folders or case files (default: the config and its cases/)',
      })
      .option('config', { type: 'string', describe: 'config file' }) as never,
  handler: async (args) => {
    const problems: string[] = [];
    let checked = 0;
    let warned = 0;
    const attempt = async (what: string, f: () => Promise<unknown>) => {
      checked++;
      try {
        const value = await f();
        process.stdout.write(`ok  ${what}\n`);
        for (const w of [...proposedWarnings(value), ...labelWarnings(value)]) {
          warned++;
          process.stdout.write(`warn ${w}\n`);
        }
      } catch (err) {
        if (!(err instanceof HarnessError)) throw err;
        problems.push(err.message);
        process.stdout.write(`ERR ${err.message}\n`);
      }
    };
    const config = await loadConfig(args.config, {});
    const paths = args.paths?.length ? args.paths : [config.casesDir];
    if (!args.paths?.length && config.configFile) {
      // The config's own suite selections: extra arms must not clash with a suite's arms.
      await attempt(config.configFile, () => loadSuites(config.casesDir, config.suites, config.configFile));
      await attempt(`${config.configFile} gate scopes`, async () =>
        checkScopeNames(config.gate, await loadSuites(config.casesDir, 'all'), config.configFile!),
      );
    }
    for (const p of paths) {
      if (!existsSync(p)) throw new InputError('not_found', `${p}: no such file or folder`);
      if (/\.(m?ts|m?js)$/.test(p)) await attempt(p, () => loadConfig(p, {}));
      else for (const target of targets(p)) await attempt(target.label, target.check);
    }
    if (problems.length)
      throw new InputError('invalid', `${problems.length} of ${checked} checked item(s) invalid`);
    if (warned) process.stdout.write(`${warned} warning(s); nothing invalid\n`);
  },
};

/**
 * Labels a labeller proposed and no person confirmed yet (`status: "proposed"`): the case is valid,
 * but what it measures rests on unchecked labels. Warned, never an error.
 */
function proposedWarnings(value: unknown): string[] {
  const cases: Case[] = isCase(value) ? [value] : isSuite(value) ? value.cases : [];
  const out: string[] = [];
  for (const c of cases) {
    const n = c.assertions.filter((a) => a.status === 'proposed').length;
    if (n > 0)
      out.push(
        `${c.file ?? c.id} (case ${c.id}): ${n} of ${c.assertions.length} assertions are proposed, not confirmed — check them (docs/importers.md, "Proposed labels")`,
      );
  }
  return out;
}

const isCase = (v: unknown): v is Case =>
  typeof v === 'object' && v !== null && 'assertions' in v && 'source' in v;
const isSuite = (v: unknown): v is Suite =>
  typeof v === 'object' && v !== null && 'cases' in v && 'arms' in v;

/**
 * What makes a valid case measure less than it seems to (cases/case-warnings.ts): criteria it cannot
 * be scored on for want of labels, assertions of a return or escalation case without a location.
 */
function labelWarnings(value: unknown): string[] {
  const cases: Case[] = isCase(value) ? [value] : isSuite(value) ? value.cases : [];
  return cases.flatMap((c) => caseWarnings(c).map((w) => `${c.file ?? c.id} (case ${c.id}): ${w}`));
}

interface Target {
  label: string;
  check: () => Promise<unknown>;
}

/** Suite folders are validated whole (suite.json, generator output, case files); loose case files alone. */
function targets(path: string): Target[] {
  const files = statSync(path).isDirectory() ? findCaseFiles([path]) : [path];
  const suites = new Set(files.filter((f) => basename(f) === 'suite.json').map(dirname));
  const out: Target[] = [...suites].map((dir) => ({
    label: join(dir, 'suite.json'),
    check: () => checkSuite(dir),
  }));
  for (const f of files) {
    if (basename(f) === 'suite.json' || [...suites].some((s) => f.startsWith(`${s}/`))) continue;
    out.push({ label: f, check: () => checkLooseCase(f) });
  }
  return out;
}

async function checkLooseCase(file: string): Promise<unknown> {
  const suiteFile = [dirname(file), dirname(dirname(file))]
    .map((d) => join(d, 'suite.json'))
    .find(existsSync);
  const suite = suiteFile
    ? (JSON.parse(readText(suiteFile)) as { id: string; criteria: string[]; direction: 'return' })
    : { id: 'loose', criteria: ['correctness'], direction: 'return' as const };
  let raw: unknown;
  try {
    raw = JSON.parse(readText(file));
  } catch (err) {
    throw new InputError('case_invalid', `${file}: (file): not valid JSON: ${(err as Error).message}`);
  }
  return toCase(raw, file, dirname(file), suite);
}

/** A suite loads (schema, generator, cases) and every arm names a strategy with valid params. */
async function checkSuite(dir: string): Promise<unknown> {
  const suite = await loadSuite(dir);
  for (const a of suite.arms) {
    const where = `${join(dir, 'suite.json')}: arms.${a.name}`;
    resolveParams(getStrategy(a.strategy, {}, where), a.params, where);
  }
  return suite;
}
