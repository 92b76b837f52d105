import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaffoldCase } from '../../cases/scaffold.ts';
import { toCase } from '../../cases/load.ts';
import { InputError } from '../../harness/core/errors.ts';
import type { Case, Transcript } from '../../harness/core/index.ts';
import { strategies } from '../../strategies/index.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { countTokens } from '../../harness/core/tokens.ts';
import { transcriptPath, transcriptsMissing } from '../support/transcripts.ts';
import { runCli } from '../support/cli.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'handoff-scaffold-'));

const suite = { id: 'scaffolded', criteria: ['correctness'], direction: 'escalation' as const };

function openAiSession(): string {
  const dir = mkdtempSync(join(tmpdir(), 'he-scaffold-'));
  const file = join(dir, 'session.json');
  writeFileSync(
    file,
    JSON.stringify([
      { role: 'user', content: 'Which merchants pin 2023-10?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'query', arguments: '{"sql":"select 1"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'm_1, m_2' },
      {
        role: 'assistant',
        content:
          'Two merchants pin it. I could not determine whether the sandbox adapter pins it too. Assuming the table is authoritative.',
      },
    ]),
  );
  return file;
}

describe('case from-session', () => {
  it('scaffolds an escalation case that validates, with hedges and assumptions proposed (not confirmed)', async () => {
    const file = openAiSession();
    const raw = scaffoldCase({ file, task: 'Continue the work', direction: 'escalation' });
    expect(raw.reference).toEqual({ facts: [], caveats: [] });
    const assertions = raw.assertions as {
      kind: string;
      statement: string;
      status: string;
      location: string;
    }[];
    expect(assertions.map((a) => [a.kind, a.statement, a.status, a.location])).toEqual([
      [
        'hedged',
        'I could not determine whether the sandbox adapter pins it too.',
        'proposed',
        'final_message',
      ],
      ['assumption', 'Assuming the table is authoritative.', 'proposed', 'final_message'],
    ]);
    const prov = raw.provenance as { labelled: boolean; labels: { proposed: number } };
    expect(prov.labelled).toBe(false);
    expect(prov.labels.proposed).toBe(2);
    const c = await toCase(raw, file, tmpdir(), suite);
    expect(c.source.messages).toHaveLength(4);
    expect(c.source.messages[1]!.toolCalls![0]!.name).toBe('query');
  });

  it('refuses a spawn case when the session spawned nobody, naming the file', () => {
    const file = openAiSession();
    expect(() => scaffoldCase({ file, task: 'x', direction: 'spawn' })).toThrow(InputError);
    expect(() => scaffoldCase({ file, task: 'x', direction: 'return' })).toThrow(
      `${file}: --call: the session has no child sessions`,
    );
  });

  it.skipIf(transcriptsMissing)(
    'replays a real parent → child return under every return strategy with pairing intact',
    async () => {
      const file = transcriptPath('claude-code-v2-teammates');
      const raw = scaffoldCase({ file, task: 'Merge what the teammates found', direction: 'return' });
      const c: Case = await toCase(raw, file, tmpdir(), { ...suite, direction: 'return' });
      const history = c.receiverHistory as Transcript;
      const last = history.messages[history.messages.length - 1]!;
      expect(last.role).toBe('assistant');
      expect(last.toolCalls).toHaveLength(1);
      expect(last.toolCalls![0]!.name).toBe('Agent');
      for (const name of ['inline', 'full-transcript', 'brick-only', 'parity-narration'] as const) {
        const s = strategies[name];
        const params = Object.fromEntries(
          Object.entries(s.params).map(([k, p]) => [k, (p as { default: unknown }).default]),
        );
        const h = await s.prepare(
          {
            case: c,
            arm: { name, strategy: name, models: { source: 'large', receiver: 'large' } },
            rep: 0,
            budgetTokens: 200_000,
            tokens: countTokens,
            call: async () => {
              throw new Error('no model calls expected');
            },
          },
          params as never,
        );
        expect(pairingCheck(h.messages).passed, name).toBe(true);
      }
    },
  );

  it.skipIf(transcriptsMissing)('scaffolds a spawn case whose source ends at the spawn call', async () => {
    const file = transcriptPath('claude-code-v2-teammates');
    const raw = scaffoldCase({ file, task: 'Research plan mode', direction: 'spawn' });
    const c = await toCase(raw, file, tmpdir(), { ...suite, direction: 'spawn' });
    const last = c.source.messages[c.source.messages.length - 1]!;
    expect(last.toolCalls?.some((t) => t.id === c.spawnCallId)).toBe(true);
  });
});

describe.skipIf(transcriptsMissing)('case from-session --instance / --sample (issue 28 item 6)', () => {
  it('scaffolds the named session of a multi-session file and records which one', () => {
    const file = transcriptPath('openhands-resolver-output-pr-viewer.jsonl');
    const first = scaffoldCase({ file, task: 't', direction: 'escalation' });
    const second = scaffoldCase({ file, task: 't', direction: 'escalation', instance: 1 });
    const calls = (c: Record<string, unknown>) =>
      (c.source as Transcript).messages.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0);
    // Two issues of 4 and 22 calls (docs/importers.md).
    expect([calls(first), calls(second)]).toEqual([4, 22]);
    expect((second.provenance as Record<string, unknown>).instance).toBe(1);
  });

  it('the CLI takes --instance and --sample, and refuses them with --all', () => {
    const file = transcriptPath('inspect-metr-oxdna-opus41-6epochs.eval');
    const r = runCli(['case', 'from-session', file, '--task', 't', '--sample', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).provenance).toMatchObject({ sample: 2 });
    const all = runCli([
      'case',
      'from-session',
      file,
      '--task',
      't',
      '--all',
      '--out',
      tempDir(),
      '--instance',
      '1',
    ]);
    expect(all.code).toBe(2);
    expect(all.stderr).toMatch(/drop --instance\/--sample/);
  });
});
