import { describe, expect, it } from 'vitest';
import { checkStrategy, defineStrategy, type CheckOptions } from '../../harness/index.ts';
import { InputError } from '../../harness/core/errors.ts';
import { brokenStrategies } from '../fixtures/kit/broken.ts';
import { runCli } from '../support/cli.ts';
import { renderCheckReport } from '../../harness/kit/format.ts';
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
    // (It also replays the parent's requests to a spawned child: that is spawn-instructions, apart.)
    const f = (await failuresOf('hand-stats')).filter((x) => x.invariant !== 'spawn-instructions');
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
    expect(r.stdout).toMatch(/FAIL +pairing +\d+ checked, \d+ handoff\(s\) failed \(\d+ problem\(s\)\)/);
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

describe('checkStrategy on strategies broken the ways users break them (issue 27)', () => {
  it('a tool call and its result both left out of a rendered string, no marker: a silent gap', async () => {
    const r = await checkStrategy(brokenStrategies['drop-pair-in-string'], small);
    const f = r.failures.filter((x) => x.invariant === 'gaps-marked');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(
      /^the source's (call|result of) \S+ .*is not shown between source message \d+ and source message \d+, and no recorded marker says so$/,
    );
    expect(f[0]!.message).toMatchObject({ in: 'handoff', index: 0 });
    expect(r.failedHandoffs['gaps-marked']).toBeGreaterThan(0);
    expect(r.failedHandoffs['gaps-marked']).toBeLessThanOrEqual(r.handoffs);
  });

  it('results shown in a rendered string without their calls: pairing in the string', async () => {
    const r = await checkStrategy(brokenStrategies['calls-dropped-in-string'], small);
    const f = r.failures.filter((x) => x.invariant === 'pairing');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(
      /^result of \S+ without its call in one rendered string \(source message \d+\)$/,
    );
    expect(r.failedHandoffs.pairing).toBeGreaterThan(0);
    expect(r.failedHandoffs.pairing).toBeLessThan(f.length); // many problems, counted once per handoff
  });

  it("the source's messages reversed in a string: items out of order", async () => {
    const r = await checkStrategy(brokenStrategies['reversed-in-string'], small);
    const f = r.failures.filter((x) => x.invariant === 'ordered');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(/^source message \d+ .* is shown before source message \d+ /);
    // One failure per handoff and invariant, however many items are out of place.
    expect(f.length).toBe(r.failedHandoffs.ordered);
  });

  it('reference facts and labels pasted into the payload: the receiver sees what the source never said', async () => {
    const r = await checkStrategy(brokenStrategies['reference-pasted'], small);
    const f = r.failures.filter((x) => x.invariant === 'no-leak');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.detail).toMatch(
      /^the case's (reference fact|label) \S+ \(".+"\) reaches the receiver; the source never says it$/,
    );
    expect(f[0]!.input).toMatch(/case deprecation-1/);
  });

  it("the parent's request handed to a spawned child as its instruction", async () => {
    const r = await checkStrategy(brokenStrategies['parent-orders'], small);
    const f = r.failures.filter((x) => x.invariant === 'spawn-instructions');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.input).toMatch(/\(spawn/);
    expect(f[0]!.detail).toMatch(
      /^the parent's request \(source message \d+\) reaches the child as an instruction \(a user turn's own text\)/,
    );
    // Only spawns: the same strategy's other handoffs are not failures of this invariant.
    expect(f.every((x) => /\(spawn/.test(x.input))).toBe(true);
  });

  it('a declared break is reported as declared, never as a pass and never as a failure', async () => {
    const declared = defineStrategy({
      ...brokenStrategies['parent-orders'],
      name: 'parent-orders-declared',
      declares: { 'spawn-instructions': "hands the parent's request to the child on purpose (a test)" },
    });
    const r = await checkStrategy(declared, small);
    expect(r.failures.filter((x) => x.invariant === 'spawn-instructions')).toEqual([]);
    expect(r.declared['spawn-instructions']).toMatchObject({
      reason: "hands the parent's request to the child on purpose (a test)",
    });
    expect(r.declared['spawn-instructions']!.handoffs).toBeGreaterThan(0);
    const text = renderCheckReport(r);
    expect(text).toMatch(
      /declared +spawn-instructions +\d+ checked — breaks it on \d+ handoff\(s\), as declared: hands the parent's request/,
    );
    expect(text).not.toMatch(/ok +spawn-instructions/);
  });
});
