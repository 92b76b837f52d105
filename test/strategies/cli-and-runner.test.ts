import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { miniCaseFile } from './helpers.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  run('node', ['bin/handoff-eval.js', ...args], { cwd: root, maxBuffer: 64 << 20 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe('handoff-eval render', () => {
  it('--json prints {messages, stats} with tokens, chars, the marker count and visible tool calls', async () => {
    const out = await cli(
      'render',
      '--strategy',
      'brick-only',
      '--param',
      'markers=true',
      '--param',
      'contextBudgetChars=200',
      miniCaseFile,
      '--json',
    );
    const json = JSON.parse(out.stdout) as {
      params: Record<string, unknown>;
      messages: unknown[];
      stats: Record<string, any>;
    };
    expect(json.params).toMatchObject({ markers: true, contextBudgetChars: 200 });
    expect(json.messages.length).toBeGreaterThan(0);
    expect(json.stats.markers).toBe(json.stats.markerList.length);
    expect(json.stats.markers).toBeGreaterThan(0);
    expect(typeof json.stats.tokens).toBe('number');
    expect(typeof json.stats.chars).toBe('number');
    expect(json.stats.toolCallsVisible).toBeLessThanOrEqual(2);
  });

  it('reads a normalised transcript file and prints readable text with the narration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-'));
    try {
      const c = JSON.parse(readFileSync(miniCaseFile, 'utf8')) as { source: unknown };
      const file = join(dir, 'session.json');
      writeFileSync(file, JSON.stringify(c.source));
      const out = await cli('render', '--strategy', 'parity-narration', file);
      expect(out.stdout).toContain('[child called read_file({"path":"adapters/paylane_fallback.ts"})]');
      expect(out.stdout).toContain('--- stats');
      expect(out.stdout).toMatch(/tool calls visible: 2 of 2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad input exits 2 with one line naming the problem', async () => {
    const unknown = await cli('render', '--strategy', 'nope', miniCaseFile);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown strategy "nope"; valid: .*parity-narration/);
    const badParam = await cli('render', '--strategy', 'summary', '--param', 'maxTokens=lots', miniCaseFile);
    expect(badParam.code).toBe(2);
    expect(badParam.stderr).toMatch(/param maxTokens: must be a number/);
  });
});

describe('a contract that stays invalid is an error row, never a silent pass', () => {
  it('records SubagentContractError on the cell', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-run-'));
    try {
      cpSync(join(root, 'test/fixtures/cases/mini'), join(dir, 'cases/mini'), { recursive: true });
      const suiteFile = join(dir, 'cases/mini/suite.json');
      const suite = JSON.parse(readFileSync(suiteFile, 'utf8'));
      suite.arms = [
        { name: 'contract', strategy: 'structured-contract', models: { source: 'large', receiver: 'large' } },
      ];
      suite.baselineArm = 'contract';
      writeFileSync(suiteFile, JSON.stringify(suite));
      const config = resolveConfig({
        casesDir: join(dir, 'cases'),
        outDir: join(dir, 'runs'),
        reps: 2,
        cache: false,
        sim: { sizes: { large: { contractOmitField: 1 } } },
      });
      const outcome = await runExperiment({ config });
      expect(outcome.rows).toHaveLength(2);
      for (const row of outcome.rows) {
        expect(row.status).toBe('error');
        expect(row.error_code).toBe('subagent_contract');
        expect(row.error).toMatch(/research_result invalid after 3 attempt\(s\)/);
        expect(row.model_calls).toBe(3);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
