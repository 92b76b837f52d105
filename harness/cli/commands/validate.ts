import type { Command } from '../command.ts';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { HarnessError, InputError } from '../../core/errors.ts';
import { loadConfig } from '../../config/load-config.ts';
import { findCaseFiles, listSuiteIds, readSuiteJson, toCase } from '../../../cases/load.ts';
import { preflight } from '../../runner/preflight.ts';
import { checkScopeNames } from '../../gate/scopes.ts';
import { caseWarnings } from '../../../cases/case-warnings.ts';
import type { Case } from '../../core/index.ts';
import type { ResolvedConfig, ResolvedSuiteSelection } from '../../config/types.ts';
import { readText } from '../../core/text/read-text.ts';
import { checkSuiteDir } from './validate-suite.ts';

interface ValidateArgs {
  paths: string[];
  config?: string;
}

export const validateCommand: Command<ValidateArgs> = {
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
    const config = await loadConfig(args.config, {});
    const problems: string[] = [];
    let checked = 0;
    let warned = 0;
    const report = (label: string, found: string[], value?: unknown) => {
      checked++;
      problems.push(...found);
      if (found.length === 0) process.stdout.write(`ok  ${label}\n`);
      for (const p of found) process.stdout.write(`ERR ${p}\n`);
      for (const w of [...proposedWarnings(value), ...labelWarnings(value)]) {
        warned++;
        process.stdout.write(`warn ${w}\n`);
      }
    };
    const attempt = async (what: string, f: () => Promise<unknown>) => {
      try {
        report(what, [], await f());
      } catch (err) {
        if (!(err instanceof HarnessError)) throw err;
        report(what, [err.message]);
      }
    };
    const suite = async (dir: string) => {
      const id = basename(dir);
      const at = config.suites === 'all' ? -1 : config.suites.findIndex((s) => s.id === id);
      const sel = at >= 0 ? (config.suites as ResolvedSuiteSelection[])[at] : undefined;
      const r = await checkSuiteDir(dir, config, sel, `${config.configFile ?? 'config'}: suites[${at}]`);
      report(`${r.file} (${r.cases.length} cases, ${r.arms} arms)`, r.problems, { cases: r.cases, arms: [] });
    };
    if (!args.paths?.length) {
      const file = config.configFile ?? 'config (defaults: no eval.config.ts)';
      if (config.configFile) {
        report(config.configFile, selectionProblems(config));
        // Names from suite.json alone: a suite that does not load is reported once, by its own check.
        await attempt(`${config.configFile} gate scopes`, async () =>
          checkScopeNames(config.gate, suiteNames(config), config.configFile!),
        );
      }
      for (const id of listSuiteIds(config.casesDir)) await suite(join(config.casesDir, id));
      const pre = await preflight(config);
      report(`${file}: cases folder, reporters, cells, model ids`, pre.problems);
      for (const n of pre.notes) process.stdout.write(`note ${n}\n`);
    }
    for (const p of args.paths ?? []) {
      if (!existsSync(p)) throw new InputError('not_found', `${p}: no such file or folder`);
      if (/\.(m?ts|m?js)$/.test(p)) await attempt(p, () => loadConfig(p, {}));
      else {
        const found = targets(p);
        if (found.length === 0)
          report(p, [`${p}: no suite.json or case file (*.json) in it: nothing to validate`]);
        for (const target of found)
          await (target.suite ? suite(target.suite) : attempt(target.label, target.check!));
      }
    }
    if (problems.length)
      throw new InputError('invalid', `${problems.length} problem(s) in ${checked} checked item(s)`);
    if (warned) process.stdout.write(`${warned} warning(s); nothing invalid\n`);
  },
};

/** Each suite's id and arm names (its own and the config's arms for it), from suite.json; unreadable ones skipped. */
function suiteNames(config: ResolvedConfig): { id: string; arms: { name: string }[] }[] {
  return listSuiteIds(config.casesDir).flatMap((id) => {
    try {
      const json = readSuiteJson(join(config.casesDir, id));
      const sel = config.suites === 'all' ? undefined : config.suites.find((s) => s.id === id);
      const names = [...(json.arms ?? []), ...(sel?.extraArms ?? [])].map((a) => ({ name: a.name }));
      return [{ id, arms: names }];
    } catch {
      return [];
    }
  });
}

/** Suite ids and arm names the config selects that do not exist (what `run` would reject). */
function selectionProblems(config: ResolvedConfig): string[] {
  const ids = listSuiteIds(config.casesDir);
  const file = config.configFile ?? 'config';
  const out: string[] = [];
  if (config.suites !== 'all')
    for (const s of config.suites)
      if (!ids.includes(s.id))
        out.push(
          `${file}: suites: unknown suite "${s.id}" under ${config.casesDir}; valid: ${ids.join(', ')}`,
        );
  return out;
}

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
const isSuite = (v: unknown): v is { cases: Case[] } =>
  typeof v === 'object' && v !== null && Array.isArray((v as { cases?: unknown }).cases);

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
  /** A suite folder, validated whole. */
  suite?: string;
  check?: () => Promise<unknown>;
}

/** Suite folders are validated whole (suite.json, generator output, case files); loose case files alone. */
function targets(path: string): Target[] {
  const files = statSync(path).isDirectory() ? findCaseFiles([path]) : [path];
  const suites = new Set(files.filter((f) => basename(f) === 'suite.json').map(dirname));
  const out: Target[] = [...suites].map((dir) => ({ label: join(dir, 'suite.json'), suite: dir }));
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
