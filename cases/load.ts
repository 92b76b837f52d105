import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Case, Suite, Transcript } from '../harness/core/index.ts';
import type { ResolvedSuiteSelection } from '../harness/config/types.ts';
import { CaseValidationError, UnknownNameError } from '../harness/core/errors.ts';
import { caseSchema, suiteSchema, transcriptSchema } from './schema.ts';
import { checkCase } from './check-case.ts';
import { checkUniqueArms, checkUniqueCases } from './unique.ts';
import { appliesTo, withoutDirections } from '../harness/config/frameworks.ts';
import { mergeArms } from '../harness/config/arm-overrides.ts';
import { importModule } from '../harness/config/import-module.ts';
import { stripBom } from '../harness/core/text/read-text.ts';
import { deepPath, MAX_NESTING } from '../harness/importers/depth.ts';
import { formatPath } from '../harness/importers/json-locate.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The case and suite validators, compiled on first use (~100 ms that commands reading no case never pay). */
let compiled: { caseJson: ValidateFunction; suiteJson: ValidateFunction } | undefined;
function validators(): { caseJson: ValidateFunction; suiteJson: ValidateFunction } {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: false, strict: false });
    ajv.addSchema(transcriptSchema);
    compiled = { caseJson: ajv.compile(caseSchema), suiteJson: ajv.compile(suiteSchema) };
  }
  return compiled;
}

/** Suite ids under a cases directory: every folder holding a suite.json. */
export function listSuiteIds(casesDir: string): string[] {
  if (!existsSync(casesDir)) return [];
  return readdirSync(casesDir)
    .filter((d) => existsSync(join(casesDir, d, 'suite.json')))
    .sort();
}

/** `configFile` names where a selection's extra arms come from, when one of them clashes. */
export async function loadSuites(
  casesDir: string,
  selection: ResolvedSuiteSelection[] | 'all',
  configFile: string | null = null,
): Promise<Suite[]> {
  const ids = listSuiteIds(casesDir);
  const wanted = selection === 'all' ? ids.map((id) => ({ id })) : selection;
  const suites: Suite[] = [];
  for (const [i, sel] of wanted.entries()) {
    if (!ids.includes(sel.id)) throw new UnknownNameError('suite', sel.id, ids, casesDir);
    suites.push(await loadSuite(join(casesDir, sel.id), sel, `${configFile ?? 'config'}: suites[${i}]`));
  }
  return suites;
}

export type SuiteJson = Omit<Suite, 'cases' | 'dir'> & {
  generator?: { module: string; seed?: number; count?: number };
};

export async function loadSuite(
  dir: string,
  sel?: ResolvedSuiteSelection,
  selWhere = 'config: suites',
): Promise<Suite> {
  const file = join(dir, 'suite.json');
  const json = readJson(file) as SuiteJson;
  const { suiteJson } = validators();
  if (!suiteJson(json)) throw schemaError(file, undefined, suiteJson.errors);
  const { generator, ...meta } = json;
  if (!meta.arms.some((a) => a.name === meta.baselineArm)) {
    throw new CaseValidationError(
      file,
      undefined,
      'baselineArm',
      `"${meta.baselineArm}" is not one of the suite's arms (${meta.arms.map((a) => a.name).join(', ')})`,
    );
  }
  if (meta.primaryCriterion !== undefined && !meta.criteria.includes(meta.primaryCriterion))
    throw new CaseValidationError(
      file,
      undefined,
      'primaryCriterion',
      `"${meta.primaryCriterion}" is not one of the suite's criteria (${meta.criteria.join(', ')})`,
    );
  const raws = await rawCases(dir, json);
  for (const r of raws) if (r.error) throw r.error;
  let cases = await Promise.all(raws.map((r) => toCase(r.raw, r.file, r.baseDir, json)));
  checkUniqueCases(meta.id, cases);
  // A config arm tagged with directions (frameworks()) joins only the suites it applies to.
  const extra = (sel?.extraArms ?? []).filter((a) => appliesTo(a, meta.direction)).map(withoutDirections);
  // The suite's own arms are unique; the config's arms are unique among themselves — one named like a
  // suite arm redefines it (mergeArms).
  checkUniqueArms(file, meta.id, meta.arms, [], selWhere);
  checkUniqueArms(file, meta.id, [], extra, selWhere);
  if (sel?.cases) {
    const ids = cases.map((c) => c.id);
    for (const id of sel.cases)
      if (!ids.includes(id)) throw new UnknownNameError('case', id, ids, `suite ${meta.id}`);
    cases = cases.filter((c) => sel.cases!.includes(c.id));
  }
  // A config arm without model aliases takes the baseline arm's (a sweep usually varies params only);
  // one named like a suite arm redefines it.
  const baseModels = meta.arms.find((a) => a.name === meta.baselineArm)!.models;
  let arms = mergeArms(meta.id, meta.arms, extra, baseModels, `${selWhere}.extraArms`);
  if (sel?.arms) {
    // A direction-tagged arm kept by name (`arms: [frameworks()]`) is simply absent where it does not apply.
    const elsewhere = new Set(
      (sel.extraArms ?? []).filter((a) => !appliesTo(a, meta.direction)).map((a) => a.name),
    );
    for (const a of sel.arms)
      if (!elsewhere.has(a) && !arms.some((x) => x.name === a))
        throw new UnknownNameError(
          'arm',
          a,
          arms.map((x) => x.name),
          `suite ${meta.id}`,
        );
    arms = arms.filter((a) => sel.arms!.includes(a.name));
  }
  void generator;
  return { ...meta, arms, cases, dir };
}

/** A suite's case before validation, with the file it came from (`<generator>#i` for generated ones). */
export interface RawCase {
  raw: unknown;
  file: string;
  baseDir: string;
  /** Why it could not be read (unreadable JSON, a generator that failed). */
  error?: Error;
}

/** Every case of a suite folder as read: the generator's output, then cases/*.json in name order. */
export async function rawCases(dir: string, json: SuiteJson): Promise<RawCase[]> {
  return [...(await generatedCases(dir, json)), ...fileCases(dir)];
}

async function generatedCases(dir: string, json: SuiteJson): Promise<RawCase[]> {
  if (!json.generator) return [];
  const modFile = resolve(dir, json.generator.module);
  const failed = (error: Error): RawCase[] => [
    { raw: undefined, file: modFile, baseDir: dirname(modFile), error },
  ];
  let mod: { generate?: (o: { seed: number; count: number }) => unknown[] };
  try {
    mod = (await importModule(modFile)) as typeof mod;
  } catch (err) {
    return failed(
      new CaseValidationError(modFile, undefined, '(file)', `could not be loaded: ${(err as Error).message}`),
    );
  }
  if (typeof mod.generate !== 'function')
    return failed(
      new CaseValidationError(
        modFile,
        undefined,
        'generate',
        'the generator module must export generate({seed, count})',
      ),
    );
  const raw = mod.generate({ seed: json.generator.seed ?? 1, count: json.generator.count ?? 10 });
  return raw.map((c, i) => ({ raw: c, file: `${modFile}#${i}`, baseDir: dirname(modFile) }));
}

function fileCases(dir: string): RawCase[] {
  const casesDir = join(dir, 'cases');
  if (!existsSync(casesDir)) return [];
  return readdirSync(casesDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = join(casesDir, f);
      try {
        return { raw: readJson(file), file, baseDir: casesDir };
      } catch (err) {
        return { raw: undefined, file, baseDir: casesDir, error: err as Error };
      }
    });
}

/** suite.json, parsed (a CaseValidationError naming the file when it cannot be read). */
export function readSuiteJson(dir: string): SuiteJson {
  return readJson(join(dir, 'suite.json')) as SuiteJson;
}

/** Validates one raw case (schema, then meaning) and resolves transcript files. */
export async function toCase(
  raw: unknown,
  file: string,
  baseDir: string,
  suite: Pick<SuiteJson, 'id' | 'criteria' | 'direction'>,
): Promise<Case> {
  const { caseJson } = validators();
  if (!caseJson(raw)) throw schemaError(file, (raw as { id?: string })?.id, caseJson.errors);
  const r = raw as Case & Record<string, unknown>;
  const c: Case = {
    ...r,
    suite: suite.id,
    direction: r.direction ?? suite.direction,
    criteria: r.criteria ?? suite.criteria,
    source: await resolveTranscript(r.source, baseDir, file, r.id, 'source'),
    sources: r.sources
      ? await Promise.all(r.sources.map((s, i) => resolveTranscript(s, baseDir, file, r.id, `sources[${i}]`)))
      : undefined,
    receiverHistory: r.receiverHistory
      ? await resolveTranscript(r.receiverHistory, baseDir, file, r.id, 'receiverHistory')
      : undefined,
    file,
  };
  checkCase(c, file);
  return c;
}

async function resolveTranscript(
  value: unknown,
  baseDir: string,
  file: string,
  caseId: string,
  field: string,
): Promise<Transcript> {
  const v = value as Transcript | { file: string; from?: string; child?: string };
  if (!('file' in v)) return v;
  const path = resolve(baseDir, v.file);
  if (!existsSync(path))
    throw new CaseValidationError(file, caseId, `${field}.file`, `transcript file not found: ${path}`);
  const { importTranscript } = await import('../harness/importers/index.ts');
  const { transcript } = await importTranscript(path, { from: (v.from ?? 'auto') as never });
  if (!v.child) return transcript;
  const child = transcript.children?.[v.child];
  if (!child)
    throw new CaseValidationError(file, caseId, `${field}.child`, `no child transcript for call ${v.child}`);
  return child;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = stripBom(strictUtf8.decode(readFileSync(file)));
  } catch (err) {
    // A case in another encoding (Latin-1, UTF-16) would otherwise load with U+FFFD in its claims and
    // cues, and its assertions could never match anything.
    const why =
      err instanceof TypeError
        ? 'not valid UTF-8 (save it as UTF-8)'
        : `cannot read: ${(err as Error).message}`;
    throw new CaseValidationError(file, undefined, '(file)', why);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CaseValidationError(file, undefined, '(file)', `not valid JSON: ${(err as Error).message}`);
  }
  tooDeep(file, value);
  return value;
}

/** A case nested thousands deep (hostile tool arguments) is refused here, before any recursive code overflows on it. */
export function tooDeep(file: string, value: unknown): void {
  const path = deepPath(value);
  if (path)
    throw new CaseValidationError(
      file,
      undefined,
      formatPath(path.slice(0, 6)) + (path.length > 6 ? '…' : ''),
      `nested more than ${MAX_NESTING} levels deep (real tool arguments nest a few levels; this input is broken or hostile)`,
    );
}

export function schemaError(
  file: string,
  caseId: string | undefined,
  errors: ErrorObject[] | null | undefined,
): CaseValidationError {
  const e = errors?.[0];
  // The field a reader must fix: the missing or unexpected property itself, not its parent object.
  const named =
    e?.params && 'missingProperty' in e.params
      ? e.params.missingProperty
      : e?.params && 'additionalProperty' in e.params
        ? e.params.additionalProperty
        : undefined;
  const field = e
    ? (e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(root)') +
      (named !== undefined ? `.${String(named)}` : '')
    : '(root)';
  const extra =
    e?.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : '';
  return new CaseValidationError(
    file,
    caseId,
    field.replace(/^\(root\)\./, ''),
    `${e?.message ?? 'invalid'}${extra}`,
  );
}

/** Every case and suite file under the given paths (files or folders), for `validate`. */
export function findCaseFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const f of readdirSync(p).sort()) walk(join(p, f));
    else if (p.endsWith('.json')) out.push(p);
  };
  for (const p of paths) walk(p);
  return out;
}
