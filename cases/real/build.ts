/**
 * Rebuilds the real-session cases from ../shared/transcripts through the importer, trims them,
 * applies the hand labels, and writes normalised JSON into each suite's cases/ folder (CI has no
 * ../shared, so the JSON is what is committed). Usage: npx tsx cases/real/build.ts [transcripts-dir]
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { write } from './common.ts';
import { teammatesCases } from './teammates.ts';
import { milkCase, ownedCase } from './sessions.ts';

const casesDir = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = process.argv[2] ?? join(casesDir, '..', 'test', 'fixtures', 'transcripts');
if (!existsSync(dir)) throw new Error(`transcripts folder not found: ${dir}`);

const t = teammatesCases(dir);
const out: [string, { id: string }][] = [
  ['ledgerline', t.ledgerline],
  ['spawn-context', t.spawn],
  ['multi-child', t.multi],
  ['milk', milkCase(dir)],
  ['esc-owned-parity', ownedCase(dir)],
];
for (const [suite, c] of out) {
  const path = join(casesDir, suite, 'cases', `${c.id}.json`);
  write(path, c);
  process.stdout.write(`wrote ${path}\n`);
}
