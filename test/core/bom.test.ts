import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, repoRoot } from '../support/cli.ts';
import { fixtureCases, rowsOf, tempDir } from '../support/mock-run.ts';
import { importTranscript } from '../../harness/importers/index.ts';

/**
 * Windows editors (Notepad, some PowerShell redirections) start UTF-8 files with a byte-order mark.
 * JSON.parse rejects it, so every file a person may have saved — case files, suite.json, the config,
 * a run's config.json, a baseline, an imported transcript — is read with the BOM dropped.
 */
const BOM = '\uFEFF';
const addBom = (file: string) => writeFileSync(file, BOM + readFileSync(file, 'utf8'));
const notJson = /not valid JSON|Unexpected token|internal error/;

describe('a UTF-8 BOM at the start of a file', () => {
  it('case file, suite.json, config, config.json, baseline: validate, run, report, resume and gate accept it', () => {
    const project = tempDir('bom');
    cpSync(fixtureCases, join(project, 'cases'), { recursive: true });
    addBom(join(project, 'cases/mini/suite.json'));
    addBom(join(project, 'cases/mini/cases/deprecation-1.json'));
    writeFileSync(
      join(project, 'eval.config.ts'),
      `${BOM}export default ${JSON.stringify({ casesDir: 'cases', reps: 2, cache: false })};\n`,
    );
    const cli = (...args: string[]) => runCli(args, { cwd: project });
    const validate = cli('validate');
    expect(validate.code, validate.stderr).toBe(0);
    const run = cli('run', '--out', 'runs', '--quiet');
    expect(run.code, run.stderr).toBe(0);
    const dir = join(project, 'runs', readdirSync(join(project, 'runs'))[0]!);
    expect(rowsOf(dir).filter((r) => r.status === 'ok')).toHaveLength(6);

    addBom(join(dir, 'config.json'));
    const report = cli('report', dir);
    expect(report.code, report.stderr).toBe(0);
    const resume = cli('run', '--resume', dir, '--quiet');
    expect(resume.code, resume.stderr).toBe(0);

    expect(cli('baseline', dir, '--out', 'baseline.json').code).toBe(0);
    addBom(join(project, 'baseline.json'));
    const gate = cli('gate', dir, '--baseline', 'baseline.json');
    expect(gate.stderr).not.toMatch(notJson);
    expect(gate.stdout).toMatch(/^## handoff-eval gate: /);
  });

  it.each([
    'claude-code-nextjs-todo.jsonl',
    'inspect-browser-gpt4omini.json',
    'sweagent-text-pydicom-1458.traj',
    'openhands-multiswe-ponyc.jsonl',
  ])('an imported transcript (%s) reads the same as without it', (name) => {
    const original = join(repoRoot, 'test/fixtures/transcripts', name);
    const copy = join(tempDir('bom-import'), name);
    writeFileSync(copy, BOM + readFileSync(original, 'utf8'));
    const plain = importTranscript(original);
    const bom = importTranscript(copy);
    expect(bom.stats).toEqual(plain.stats);
    expect(bom.transcript.messages).toEqual(plain.transcript.messages);
  });
});
