import { describe, expect, it } from 'vitest';
import { checkStrategy, defineStrategy, type CheckOptions } from '../../harness/index.ts';
import { InputError } from '../../harness/core/errors.ts';
import { brokenStrategies } from '../fixtures/kit/broken.ts';
import { runCli } from '../support/cli.ts';
import { transcriptPath } from '../support/transcripts.ts';

/** Small inputs: one real transcript (each direction), the mini suite, a few generated sessions. */
const small: CheckOptions = {
  transcripts: [transcriptPath('taubench-gpt4o-airline-task9.json')],
  casesDirs: ['test/fixtures/cases'],
  generated: 3,
  variants: false,
};

const failuresOf = async (name: keyof typeof brokenStrategies) => {
  const r = await checkStrategy(brokenStrategies[name], small);
  expect(r.passed).toBe(false);
  return r.failures;
};

describe('checkStrategy on strategies broken on purpose', () => {
  it('a call split from its result: names the input, the message and the call', async () => {
    const f = (await failuresOf('drop-results')).filter((x) => x.invariant === 'pairing');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(/^call \S+ without its result$/);
    expect(f[0]!.input).toMatch(/taubench-gpt4o-airline-task9\.json \(escalation\) at 200000 tokens/);
    expect(f[0]!.message).toMatchObject({ in: 'handoff' });
    expect(f[0]!.message!.excerpt).toContain('tool call');
  });

  it('a result cut with no marker', async () => {
    const f = (await failuresOf('silent-cut')).filter((x) => x.invariant === 'cuts-marked');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(/is shown cut — 100 of \d+ characters — and no recorded marker follows it/);
  });

  it("an assistant message cut with no marker (the source's own words, not only its tool results)", async () => {
    const f = (await failuresOf('silent-text-cut')).filter((x) => x.invariant === 'cuts-marked');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(
      /^the source's message \d+ \(assistant\) is shown cut — 120 of \d+ characters — and no recorded marker follows it$/,
    );
  });

  it('a stat filled by hand', async () => {
    const f = await failuresOf('hand-stats');
    expect(f.every((x) => x.invariant === 'stats')).toBe(true);
    expect(f[0]!.detail).toMatch(
      /^stats\.tokens is 7, the handoff says \d+ \(o200k tokens of the payload, or of a tail of the messages as the request counts them\)$/,
    );
  });

  it('a different handoff for the same inputs', async () => {
    const f = await failuresOf('coin-flip');
    expect(f.map((x) => x.invariant)).toContain('same-inputs');
    expect(f[0]!.detail).toBe('system differs between two preparations with the same inputs');
  });

  it('a model call from a strategy declared deterministic', async () => {
    const f = await failuresOf('secretly-calls');
    expect(f[0]).toMatchObject({
      invariant: 'deterministic',
      detail: 'strategy "secretly-calls" is declared deterministic but asked for a model call',
    });
  });

  it('a declared superset that leaves out the source’s last message', async () => {
    const f = (await failuresOf('false-superset')).filter((x) => x.invariant === 'superset');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(
      /the receiver does not see the source's (text|call \S+|result of \S+) \(source message \d+ of \d+\)/,
    );
    expect(f[0]!.message?.in).toBe('source');
  });

  it('an exception names the error and where it was thrown', async () => {
    const f = await failuresOf('crashes');
    expect(f[0]!.invariant).toBe('prepares');
    expect(f[0]!.detail).toMatch(
      /prepare\(\) threw TypeError: Cannot set properties of undefined.*broken\.ts/,
    );
  });

  it('an error row on every input is a failure (nothing was checked); a HarnessError alone is an outcome', async () => {
    const r = await checkStrategy(brokenStrategies['always-errors'], small);
    expect(r.handoffs).toBe(0);
    expect(r.errored.length).toBeGreaterThan(0);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]!.detail).toMatch(/raised an error on every input/);
  });

  it('bad input is an InputError, not a failure: a strategy with no prepare, an unknown name, an unreadable transcript', async () => {
    const noPrepare = { name: 'x', description: 'd', seed: 's', params: {} } as never;
    await expect(checkStrategy(noPrepare, small)).rejects.toThrow(/strategy x: prepare: must be a function/);
    const badDefault = defineStrategy({
      ...brokenStrategies['drop-results'],
      name: 'bad-default',
      params: { n: { type: 'number', default: 'three', description: 'a count' } },
    });
    await expect(checkStrategy(badDefault, small)).rejects.toThrow(/params\.n\.default: must be a number/);
    await expect(checkStrategy('no-such-strategy', small)).rejects.toThrow(
      /unknown strategy "no-such-strategy"; valid: /,
    );
    await expect(
      checkStrategy('inline', { ...small, transcripts: ['test/fixtures/kit/broken.ts'] }),
    ).rejects.toBeInstanceOf(InputError);
  });
});

describe('handoff-eval check-strategy', () => {
  const args = [
    '--config',
    'test/fixtures/kit/eval.config.ts',
    '--transcripts',
    transcriptPath('taubench-gpt4o-airline-task9.json'),
    '--cases',
    'test/fixtures/cases',
    '--generated',
    '2',
  ];

  it('exits 1 on a failure and prints it with the input and the offending message', () => {
    const r = runCli(['check-strategy', '--strategy', 'drop-results', ...args]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL  pairing +\d+ checked, \d+ failed/);
    expect(r.stdout).toMatch(
      /FAIL pairing — .*taubench-gpt4o-airline-task9\.json \(escalation\) at 200000 tokens/,
    );
    expect(r.stdout).toMatch(/\n {2}call \S+ without its result\n {2}handoff message \d+: .*tool call/);
    expect(r.stdout).toMatch(/\d+ failure\(s\)\n$/);
  });

  it('exits 0 when every invariant holds, and 2 on bad input', () => {
    const ok = runCli(['check-strategy', '--strategy', 'brick-only', '--no-variants', ...args]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('passed: brick-only holds every invariant');
    const unknown = runCli(['check-strategy', '--strategy', 'nope', ...args]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--strategy: unknown strategy "nope"; valid: .*drop-results/);
    const bad = runCli(['check-strategy', '--strategy', 'inline', '--transcripts', 'no/such/file.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no\/such\/file\.json: no such file or folder/);
  });
});
