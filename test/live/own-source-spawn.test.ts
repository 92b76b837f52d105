import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCliAsync } from '../support/cli.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * `--source` with a spawn suite is refused before any cell runs (exit 2, the suite and the flag
 * named): a spawn case's source is its recorded parent, which live mode never re-runs, so the user's
 * agent would have run nowhere and the rows would have been the harness's own.
 */
describe('--source and spawn cases', () => {
  it('refuses the combination naming the suite; the other live suites still run with it', async () => {
    const dir = tempDir('own-source-spawn');
    const agent = join(repoRoot, 'examples/own-agent/agent.mjs');
    const sources = {
      'example-agent': {
        command: ['node', agent, '--world', '{world}', '--brief', '{brief}', '--out', '{out}'],
        format: 'openai',
      },
    };
    writeFileSync(
      join(dir, 'eval.config.ts'),
      `import shipped from ${JSON.stringify(join(repoRoot, 'eval.config.ts'))};\nexport default { ...shipped, cache: false, sources: ${JSON.stringify(sources)} };\n`,
    );
    const run = (...suite: string[]) =>
      runCliAsync(
        [
          'run',
          '--mode',
          'live',
          '--source',
          'example-agent',
          ...suite,
          '--reps',
          '1',
          '--out',
          join(dir, 'runs'),
          '--quiet',
          '--dry-run',
        ],
        { cwd: dir },
      );
    const spawn = await run('--suite', 'spawn-context');
    expect(spawn.code).toBe(2);
    expect(spawn.stderr).toMatch(/--source/);
    expect(spawn.stderr).toMatch(/suite spawn-context \(arm [\w-]+\) has spawn cases/);
    expect(spawn.stderr).toMatch(/leave the suite out \(--suite <others>\) or run it without --source/);
    const ledgerline = await run('--suite', 'ledgerline', '--case', 'ledgerline-01');
    expect(ledgerline.code, ledgerline.stderr).toBe(0);
  });
});
