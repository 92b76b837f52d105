import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { listValues } from '../../harness/cli/commands/flags.ts';
import { loadExperiment } from '../../harness/runner/experiment.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * Issue 28 item 12: every config value the run cannot use fails when the config loads, naming the
 * file and the field — not at every cell later.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const load = (user: unknown) => () => resolveConfig(user as never, {}, 'eval.config.ts');

const refused: [unknown, string][] = [
  [{ providers: { openai: { concurrency: 0 } } }, 'providers.openai.concurrency: must be >= 1 (got 0)'],
  [{ providers: { openai: { timeoutMs: -1 } } }, 'providers.openai.timeoutMs: must be >= 1 (got -1)'],
  [{ providers: { openai: { maxRetries: -1 } } }, 'providers.openai.maxRetries: must be >= 0 (got -1)'],
  [{ providers: { openai: { maxRetries: 1.5 } } }, 'providers.openai.maxRetries: must be integer (got 1.5)'],
  [
    { providers: { openai: { transport: 'curl' } } },
    'providers.openai.transport: must be one of "node", "fetch" (got "curl")',
  ],
  [
    { providers: { anthropic: { rateLimits: 'on' } } },
    'providers.anthropic.rateLimits: must be one of "adaptive", "off" (got "on")',
  ],
  [
    { providers: { openai: { batch: { pollMs: 0 } } } },
    'providers.openai.batch.pollMs: must be >= 1 (got 0)',
  ],
  [{ providers: { openai: { baseURL: 5 } } }, 'providers.openai.baseURL: must be string (got 5)'],
  [
    { providers: { openai: { timeout: 5 } } },
    'providers.openai.timeout: unknown field; valid: baseURL, maxRetries, timeoutMs, concurrency, transport, batch, rateLimits, create',
  ],
  [{ models: { large: { sim: 5 } } }, 'models.large.sim: must be string (got 5)'],
  [{ sim: { sizes: { large: { citeEvidence: 5 } } } }, 'sim.sizes.large.citeEvidence: must be <= 1 (got 5)'],
  [
    { sim: { sizes: { small: { summaryKeep: { hedged: -0.1 } } } } },
    'sim.sizes.small.summaryKeep.hedged: must be >= 0 (got -0.1)',
  ],
  [{ sim: { sizes: { huge: {} } } }, 'sim.sizes.huge: unknown field; valid: small, large, judge'],
  [{ sim: { judge: { noise: 2 } } }, 'sim.judge.noise: must be <= 1 (got 2)'],
  [
    { sim: { sizes: { large: { contextWindowTokens: 0 } } } },
    'sim.sizes.large.contextWindowTokens: must be >= 1 (got 0)',
  ],
  [
    { gate: { suites: { 'spawn-contxt': { maxDrop: 1 } } } },
    'gate.suites.spawn-contxt: no suite "spawn-contxt" under cases; valid: esc-owned-parity, ledgerline, milk, multi-child, spawn-context',
  ],
  [{ strategies: { x: 5 } }, 'strategies.x: must be object (got 5)'],
  [{ strategies: { x: { name: 'x' } } }, 'strategies.x: missing prepare (got {"name":"x"})'],
  [{ cache: 'yes' }, 'cache: must be boolean or object (got "yes")'],
  [{ prices: { 'gpt-4o': { input: -1, output: 1 } } }, 'prices.gpt-4o.input: must be >= 0 (got -1)'],
  [{ prices: { 'gpt-4o': { input: 1 } } }, 'prices.gpt-4o: missing output (got {"input":1})'],
  [
    { provider: { default: 'sim', extra: 'x' } },
    'provider.extra: unknown field; valid: default, source, receiver, judge',
  ],
  [{ arms: [''] }, 'arms[0]: must NOT have fewer than 1 characters (got "")'],
];

describe('the config schema', () => {
  it.each(refused)('refuses %j at load, naming the field', (user, message) => {
    expect(load(user)).toThrow(`eval.config.ts: ${message}`);
  });

  it('accepts the values the docs show', () => {
    expect(
      load({
        providers: {
          openai: {
            concurrency: 4,
            timeoutMs: 1000,
            maxRetries: 0,
            transport: 'fetch',
            batch: { pollMs: 10 },
          },
        },
        sim: { sizes: { large: { citeEvidence: 0.5, latency: { baseMs: 0 } } }, judge: { noise: 0 } },
        cache: { dir: '.c' },
        gate: { suites: { 'spawn-context': { maxDrop: 1 } } },
      }),
    ).not.toThrow();
  });
});

describe('flags and case files', () => {
  it('--suite "" and --arm "," name nothing: refused, not read as no filter', () => {
    expect(() => listValues('', '--suite')).toThrow(
      '--suite: names nothing (got ""); give one or more, comma-separated',
    );
    expect(() => listValues([','], '--arm')).toThrow('--arm: names nothing (got ",")');
    expect(listValues(undefined, '--arm')).toEqual([]);
    expect(listValues('a,,b', '--arm')).toEqual(['a', 'b']);
  });

  const project = () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-schema-'));
    made.push(dir);
    cpSync(join(repoRoot, 'test/fixtures/cases/mini'), join(dir, 'mini'), { recursive: true });
    return dir;
  };

  it('an unknown criterion in suite.json fails when the suite loads, naming the file', async () => {
    const dir = project();
    const file = join(dir, 'mini', 'suite.json');
    const suite = JSON.parse(readFileSync(file, 'utf8'));
    suite.criteria = [...suite.criteria, 'correctnes'];
    writeFileSync(file, JSON.stringify(suite));
    await expect(loadExperiment(resolveConfig({ casesDir: dir }))).rejects.toThrow(
      new RegExp(
        `^${file.replace(/[.]/g, '\\.')}.*criteria\\[\\d\\]: unknown criterion "correctnes"; valid: `,
      ),
    );
  });

  it('a case file that is not UTF-8 is refused naming the file', async () => {
    const dir = project();
    const file = join(dir, 'mini', 'cases', 'deprecation-1.json');
    const bytes = readFileSync(file);
    const at = bytes.indexOf(Buffer.from('"title"')) + 10;
    bytes[at] = 0xe9; // Latin-1 é
    writeFileSync(file, bytes);
    await expect(loadExperiment(resolveConfig({ casesDir: dir }))).rejects.toThrow(
      `${file}: (file): not valid UTF-8 (save it as UTF-8)`,
    );
  });
});
