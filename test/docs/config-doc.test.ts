import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/cli.ts';
import { userConfigFields } from './config-fields.ts';

describe('docs/config.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs/config.md'), 'utf8');
  const rows = new Map<string, string[]>();
  const section = doc.slice(doc.indexOf('## Fields'), doc.indexOf('\n## ', doc.indexOf('## Fields') + 1));
  for (const line of section.split('\n')) {
    const m = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (m)
      rows.set(
        m[1]!,
        m[2]!.split(/(?<!\\)\|/).map((c) => c.trim()),
      );
  }
  const fields = userConfigFields();

  it('reads the fields from the UserConfig type itself', () => {
    expect(fields).toEqual(
      expect.arrayContaining([
        'suites',
        'suites[].extraArms',
        'judge.classify',
        'cache.dir',
        'provider.judge',
        'providers.<key>.baseURL',
        'prices.<key>.input',
        'gate.maxDrop',
        'strategies',
      ]),
    );
    expect(fields.length).toBeGreaterThan(40);
  });

  it('documents every field of the user config with its type, default and an example', () => {
    const missing = fields.filter((f) => !rows.has(f));
    expect(
      missing,
      'fields of UserConfig missing from docs/config.md (a table row | `field` | type | default | example |)',
    ).toEqual([]);
    for (const f of fields) {
      const cells = rows.get(f)!;
      expect(cells.length, f).toBe(3);
      for (const c of cells) expect(c, `${f}: empty cell`).not.toBe('');
    }
  });

  it('documents no field the type does not have', () => {
    expect([...rows.keys()].filter((r) => !fields.includes(r))).toEqual([]);
  });
});
