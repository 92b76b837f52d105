import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeModels } from '../../harness/runner/resume-models.ts';
import { stoppedText } from '../../harness/cli/run-outcome.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { ProviderError } from '../../harness/core/errors.ts';

/**
 * Issue 27 item 5: a run stopped by an unknown model (exit 4) says which config field to change, and
 * `run --resume` takes the changed id — as long as no journalled cell was made with the old one (one
 * run never mixes two models under one alias).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function runDir(rows: Record<string, string>[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'he-resume-models-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'results.jsonl'), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return dir;
}
const stored = { large: { sim: 'sim-huge', openai: 'gpt-4q' }, judge: { sim: 'sim-judge' } };
const current = { large: { sim: 'sim-large', openai: 'gpt-4o' }, judge: { sim: 'sim-judge' } };

describe('resumeModels', () => {
  it('takes a changed id no journalled cell used', () => {
    const r = resumeModels(runDir([]), stored, current);
    expect(r.models).toEqual(current);
    expect(r.taken).toEqual(['models.large.sim sim-huge → sim-large', 'models.large.openai gpt-4q → gpt-4o']);
  });

  it('keeps an id a journalled cell was made with', () => {
    const dir = runDir([
      { source_model: 'openai:gpt-4q', receiver_model: 'openai:gpt-4q', judge_model: 'sim:sim-judge' },
    ]);
    const r = resumeModels(dir, stored, current);
    expect(r.models.large).toEqual({ sim: 'sim-large', openai: 'gpt-4q' });
    expect(r.taken).toEqual(['models.large.sim sim-huge → sim-large']);
  });
});

describe('the exit-4 message names what to change', () => {
  const config = resolveConfig({ models: { large: { sim: 'sim-huge' } } }, {}, '/p/eval.config.ts');
  it('an unknown model: the config field and its id', () => {
    const err = new ProviderError(
      'sim',
      'sim sim-huge: HTTP 404: unknown sim model "sim-huge"; valid: sim-small',
      404,
    );
    const text = stoppedText({ stoppedBy: err, rows: [], dir: 'runs/r1' }, config);
    expect(text).toContain(
      '  Change models.large.sim ("sim-huge") in /p/eval.config.ts to a model sim has (handoff-eval validate lists the ids it does not); the resume takes the new id, then continue with:\n  handoff-eval run --resume runs/r1',
    );
  });
  it('a refused key: its variable', () => {
    const err = new ProviderError('openai', 'openai gpt-4o: HTTP 401: Incorrect API key', 401);
    expect(stoppedText({ stoppedBy: err, rows: [], dir: 'runs/r1' }, config)).toContain(
      '  Set OPENAI_API_KEY to a key openai accepts',
    );
  });
});
