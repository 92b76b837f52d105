import { Ajv, type ValidateFunction } from 'ajv';
import type { CaseValidationError } from '../harness/core/errors.ts';
import { caseSchema, suiteSchema, transcriptSchema } from './schema.ts';
import { schemaError } from './load.ts';

// `validate` reports every schema problem of a file, not only the first one `run` stops at.

/** Every schema problem of a suite.json (not only the first), for `validate`. */
export function suiteJsonProblems(json: unknown, file: string): CaseValidationError[] {
  allErrorsSuite ??= new Ajv({ allErrors: true, strict: false }).compile(suiteSchema);
  if (allErrorsSuite(json)) return [];
  return (allErrorsSuite.errors ?? []).map((e) => schemaError(file, undefined, [e]));
}
let allErrorsSuite: ValidateFunction | undefined;

/**
 * Every schema problem of a raw case (not only the first), for `validate`: one line per field, in the
 * order the schema meets them. A problem under an `anyOf`/`oneOf` (a transcript given inline or as a
 * file) is reported once, at the field where the branches part, rather than once per branch.
 */
export function caseJsonProblems(raw: unknown, file: string): CaseValidationError[] {
  if (!allErrorsCase) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(transcriptSchema);
    allErrorsCase = ajv.compile(caseSchema);
  }
  if (allErrorsCase(raw)) return [];
  const id = (raw as { id?: string } | null)?.id;
  const errors = allErrorsCase.errors ?? [];
  const branchy = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => e.instancePath);
  const kept = errors.filter(
    (e) =>
      e.keyword === 'anyOf' ||
      e.keyword === 'oneOf' ||
      !branchy.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)),
  );
  const seen = new Set<string>();
  return kept
    .map((e) => schemaError(file, typeof id === 'string' ? id : undefined, [e]))
    .filter((e) => !seen.has(e.message) && seen.add(e.message));
}
let allErrorsCase: ValidateFunction | undefined;
