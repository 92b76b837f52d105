import type { Arm, Case } from '../harness/core/index.ts';
import { CaseValidationError, InputError } from '../harness/core/errors.ts';

/**
 * Names that become cell ids must be unique within a suite: two arms of one name, or two cases of one
 * id, would give two cells the same id — journalled twice, counted once, compared with nothing. Each
 * rejection names both places.
 */
export function checkUniqueArms(
  suiteFile: string,
  suiteId: string,
  arms: readonly Pick<Arm, 'name'>[],
  extra: readonly Pick<Arm, 'name'>[],
  selectionWhere: string,
): void {
  const seen = new Map<string, string>();
  arms.forEach((a, i) => {
    const first = seen.get(a.name);
    if (first)
      throw new InputError(
        'duplicate_arm',
        `${suiteFile}: arms[${i}].name: duplicate arm name "${a.name}" (also ${first})`,
      );
    seen.set(a.name, `arms[${i}].name`);
  });
  const inSuite = (where: string) => (where.startsWith('arms[') ? `${suiteFile}: ${where}` : where);
  extra.forEach((a, i) => {
    const here = `${selectionWhere}.extraArms[${i}].name`;
    const first = seen.get(a.name);
    if (first)
      throw new InputError(
        'duplicate_arm',
        `${here}: duplicate arm name "${a.name}" in suite ${suiteId} (also ${inSuite(first)})`,
      );
    seen.set(a.name, here);
  });
}

/** Case ids: generated cases are named `<generator>#<index>`, case files by their path. */
export function checkUniqueCases(suiteId: string, cases: readonly Case[]): void {
  const seen = new Map<string, string>();
  for (const c of cases) {
    const first = seen.get(c.id);
    const here = c.file ?? '(unknown file)';
    if (first)
      throw new CaseValidationError(
        here,
        c.id,
        'id',
        `duplicate case id in suite ${suiteId} (also ${first})`,
      );
    seen.set(c.id, here);
  }
}
