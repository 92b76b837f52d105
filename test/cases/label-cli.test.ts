import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarize } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import type { ResultRow } from '../../harness/core/index.ts';
import { runCli, runCliAsync } from '../support/cli.ts';
import { startMockLlmServer, type FaultRule, type MockServer } from '../support/mock-llm-server.ts';
import { mockEnv } from '../support/mock-run.ts';
import { transcriptPath, transcriptsMissing } from '../support/transcripts.ts';

const hedge = 'I could not determine whether the sandbox adapter pins it too.';

function session(dir: string): string {
  const file = join(dir, 'session.json');
  writeFileSync(
    file,
    JSON.stringify([
      { role: 'user', content: 'Which merchants pin 2023-10?' },
      {
        role: 'assistant',
        content: `Two merchants pin the 2023-10 version in the merchants table. ${hedge}`,
      },
    ]),
  );
  return file;
}

describe('case label and validate (proposed labels)', () => {
  it('case label keeps confirmed labels, re-proposes the rest; validate warns while proposals remain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-label-'));
    const file = session(dir);
    const made = runCli(['case', 'from-session', file, '--task', 'Continue', '--out', join(dir, 'c.json')]);
    expect(made.code).toBe(0);
    const c = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    expect(c.assertions.every((a: { status: string }) => a.status === 'proposed')).toBe(true);
    // A person confirms the hedge (drops its status) and deletes the rest.
    const hedged = c.assertions.find((a: { kind: string }) => a.kind === 'hedged');
    delete hedged.status;
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ ...c, assertions: [hedged] }));
    const v1 = runCli(['validate', join(dir, 'c.json')]);
    expect(v1.code).toBe(0);
    expect(v1.stdout).not.toMatch(/^warn .*proposed/m);
    const relabelled = runCli(['case', 'label', join(dir, 'c.json'), '--out', join(dir, 'c.json')]);
    expect(relabelled.code).toBe(0);
    expect(relabelled.stderr).toMatch(/1 proposed, 1 confirmed/);
    const after = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    expect(
      after.assertions.map((a: { kind: string; status?: string }) => [a.kind, a.status ?? 'confirmed']),
    ).toEqual([
      ['hedged', 'confirmed'],
      ['confident', 'proposed'],
    ]);
    const v2 = runCli(['validate', join(dir, 'c.json')]);
    expect(v2.code).toBe(0);
    expect(v2.stdout).toMatch(/^warn .*1 of 2 assertions are proposed, not confirmed/m);
  });

  it('reports count proposed vs confirmed labels per suite (each case once) and say so in report.md', () => {
    const rows = syntheticRows({ seed: 1, cases: 2, reps: 2, arms: ['inline', 'brick'], suite: 's' }).map(
      (r): ResultRow => ({
        ...r,
        labels_proposed: r.case_id.endsWith('0') ? 2 : 0,
        labels_confirmed: r.case_id.endsWith('0') ? 3 : 4,
      }),
    );
    const s = summarize(rows);
    expect(s.suites[0]!.labels).toEqual({ proposed: 2, confirmed: 7 });
    expect(renderMarkdown(s)).toMatch(/labels: 7 confirmed, 2 proposed \(unchecked\)/);
  });
});

describe('a run on a case with proposed labels', () => {
  it('each row counts them, and report.json, report.md and report.html say proposed vs confirmed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-proposed-'));
    cpSync(new URL('../fixtures/cases/mini', import.meta.url), join(dir, 'cases/mini'), { recursive: true });
    const file = join(dir, 'cases/mini/cases/deprecation-1.json');
    const c = JSON.parse(readFileSync(file, 'utf8'));
    // Two of its three labels left as a labeller proposed them.
    c.assertions = c.assertions.map((a: object, i: number) => (i < 2 ? { ...a, status: 'proposed' } : a));
    writeFileSync(file, JSON.stringify(c));
    writeFileSync(
      join(dir, 'eval.config.ts'),
      `export default { casesDir: 'cases', cache: false, reps: 2 };\n`,
    );
    const r = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const run = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
    const rows = readFileSync(join(run, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ResultRow);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x) => x.labels_proposed === 2 && x.labels_confirmed === 1)).toBe(true);
    const json = JSON.parse(readFileSync(join(run, 'report.json'), 'utf8'));
    expect(json.suites[0].labels).toEqual({ proposed: 2, confirmed: 1 });
    const line = 'labels: 1 confirmed, 2 proposed (unchecked)';
    expect(readFileSync(join(run, 'report.md'), 'utf8')).toContain(line);
    expect(readFileSync(join(run, 'report.html'), 'utf8')).toContain(line);
  });
});

describe.skipIf(transcriptsMissing)('case from-session --all', () => {
  it('scaffolds one case per session of a multi-session file', () => {
    const out = mkdtempSync(join(tmpdir(), 'he-cases-'));
    const r = runCli([
      'case',
      'from-session',
      transcriptPath('openhands-multiswe-ponyc.jsonl'),
      '--all',
      '--task',
      'Review the fix',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      'ponylang__ponyc-4588.json',
      'ponylang__ponyc-4593.json',
      'ponylang__ponyc-4595.json',
    ]);
    const v = runCli(['validate', ...readdirSync(out).map((f) => join(out, f))]);
    expect(v.code).toBe(0);
  });
});

describe('--labeller against the loopback mock (real openai SDK)', () => {
  let mock: MockServer;
  let fault: FaultRule | undefined;
  beforeAll(async () => {
    mock = await startMockLlmServer({
      capture: true,
      faults: (ctx) => fault?.(ctx),
      responder: (body) =>
        body.tool_choice?.function?.name === 'propose_assertions'
          ? {
              toolCall: {
                name: 'propose_assertions',
                input: {
                  assertions: [
                    {
                      kind: 'hedged',
                      statement: hedge,
                      claim: 'the sandbox adapter pins it',
                      cues: ['sandbox adapter'],
                      qualifierCues: ['could not determine'],
                    },
                    {
                      kind: 'confident',
                      statement: 'Two merchants pin the 2023-10 version in the merchants table.',
                      claim: 'two merchants pin 2023-10',
                      cues: ['merchants', '2023-10'],
                    },
                    {
                      kind: 'assumption',
                      statement: 'The table is complete.',
                      claim: 'the table is complete',
                      cues: ['table'],
                    },
                  ],
                },
              },
            }
          : undefined,
    });
  });
  afterAll(() => mock.close());

  it('asks the model with a forced tool call, keeps only verbatim statements, merges, and caches the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-labeller-'));
    const file = session(dir);
    const args = ['case', 'from-session', file, '--task', 'Continue', '--labeller', 'openai:gpt-4o-mini'];
    const env = mockEnv(mock);
    const first = await runCliAsync(args, { cwd: dir, env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const c = JSON.parse(first.stdout);
    const statements = c.assertions.map((a: { statement: string; id: string }) => [a.id[0], a.statement]);
    // The deterministic proposer found both sentences; the model's copies are merged away, its invented one dropped.
    expect(statements).toEqual([
      ['p', 'Two merchants pin the 2023-10 version in the merchants table.'],
      ['p', hedge],
    ]);
    expect(c.provenance.labels.by).toEqual(['cue-lexicon', 'openai:gpt-4o-mini']);
    const sent = mock.captured.filter((r) => r.protocol === 'openai');
    // The proposals, then where they are read (issue 26): the session has only a final message, one section.
    expect(sent).toHaveLength(2);
    expect(sent[0]!.body.model).toBe('gpt-4o-mini');
    expect(sent[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'propose_assertions' } });
    expect(sent[1]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'classify_survival' } });
    expect(c.provenance.labels.locations).toEqual({ by: 'openai:gpt-4o-mini', read: 2, lexicon_differs: [] });
    const again = await runCliAsync(args, { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(mock.captured.filter((r) => r.protocol === 'openai')).toHaveLength(2);
  });

  it('a model proposal no deterministic rule found is added, marked proposed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-labeller-'));
    const file = join(dir, 'session.json');
    writeFileSync(
      file,
      JSON.stringify([
        { role: 'user', content: 'go' },
        { role: 'assistant', content: `Short. ${hedge}` },
      ]),
    );
    const c0 = runCli(['case', 'from-session', file, '--task', 'x', '--out', join(dir, 'c.json')]);
    expect(c0.code).toBe(0);
    // Drop the deterministic proposals, as if a person deleted them; then ask the model.
    const c = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ ...c, assertions: [] }));
    const r = await runCliAsync(['case', 'label', join(dir, 'c.json'), '--labeller', 'openai:gpt-4o-mini'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    expect(r.code).toBe(0);
    const labelled = JSON.parse(r.stdout);
    expect(
      labelled.assertions.map((a: { id: string; kind: string; status: string }) => [
        a.id[0],
        a.kind,
        a.status,
      ]),
    ).toEqual([['p', 'hedged', 'proposed']]);
  });

  it('locations come from the labeller reading the session: a hedge said between tool calls and restated at the end is final_message, whatever the lexicon guessed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-labeller-'));
    const file = join(dir, 'session.json');
    writeFileSync(
      file,
      JSON.stringify([
        { role: 'user', content: 'Which merchants pin 2023-10?' },
        {
          role: 'assistant',
          content: `${hedge} Reading the table next.`,
          tool_calls: [{ id: 'q1', type: 'function', function: { name: 'query', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'q1', content: 'm_0007 | 2023-10' },
        {
          role: 'assistant',
          content: `Two merchants pin the 2023-10 version in the merchants table. ${hedge}`,
        },
      ]),
    );
    const r = await runCliAsync(
      ['case', 'from-session', file, '--from', 'openai', '--task', 'x', '--labeller', 'openai:gpt-4o-mini'],
      { cwd: dir, env: mockEnv(mock) },
    );
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout);
    const h = c.assertions.find((a: { statement: string }) => a.statement === hedge);
    // The lexicon proposes the hedge where it first met it (between tool calls); the reading finds it restated at the end.
    expect(h.location).toBe('final_message');
    expect(c.provenance.labels.locations.lexicon_differs).toEqual([
      { id: h.id, lexicon: 'mid_transcript', read: 'final_message' },
    ]);
  });

  it('goes through the same retry layer: a 500 is retried and the proposals still arrive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-labeller-'));
    fault = ({ attempt }) => (attempt === 0 ? { type: 'status', status: 500, retryAfterMs: 1 } : undefined);
    mock.resetStats();
    try {
      const r = await runCliAsync(
        ['case', 'from-session', session(dir), '--task', 'x', '--labeller', 'openai:gpt-4o-mini'],
        { cwd: dir, env: mockEnv(mock) },
      );
      expect(r.code, r.stderr).toBe(0);
      // Each call's first attempt gets the 500: the proposals and the location reading, each retried once.
      expect(mock.stats.requests).toBe(4);
      expect(mock.stats.retriesSeen).toBe(2);
      expect(JSON.parse(r.stdout).provenance.labels.by).toEqual(['cue-lexicon', 'openai:gpt-4o-mini']);
    } finally {
      fault = undefined;
    }
  });

  it('a provider error the retries cannot cure is one line naming the labeller call, exit 2, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-labeller-'));
    fault = () => ({ type: 'status', status: 401, message: 'Incorrect API key provided' });
    try {
      const out = join(dir, 'c.json');
      const r = await runCliAsync(
        [
          'case',
          'from-session',
          session(dir),
          '--task',
          'x',
          '--labeller',
          'openai:gpt-4o-mini',
          '--out',
          out,
        ],
        { cwd: dir, env: mockEnv(mock) },
      );
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^handoff-eval: --labeller openai:gpt-4o-mini: openai gpt-4o-mini: HTTP 401 after 1 attempt: Incorrect API key provided.* \(base URL: http:\/\/127\.0\.0\.1:\d+\/v1\); nothing was written$/,
        ),
      ]);
      expect(readdirSync(dir)).not.toContain('c.json');
    } finally {
      fault = undefined;
    }
  });

  it('sim is refused as a labeller', () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-labeller-'));
    const r = runCli(['case', 'from-session', session(dir), '--task', 'x', '--labeller', 'sim:sim-large'], {
      cwd: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sim is not a model/);
  });
});
