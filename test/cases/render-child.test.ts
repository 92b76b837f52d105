import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../harness/importers/index.ts';
import { runCli } from '../support/cli.ts';
import { transcriptPath, transcriptsMissing } from '../support/transcripts.ts';

const render = (...args: string[]) =>
  runCli([
    'render',
    transcriptPath('claude-code-v2-teammates'),
    '--strategy',
    'full-transcript',
    '--json',
    ...args,
  ]);

describe.skipIf(transcriptsMissing)('render --direction return --child (issue 19)', () => {
  it('picks the child by agent name or index; the parent up to its spawn call is the receiver history', () => {
    const byName = render('--direction', 'return', '--child', 'alice');
    expect(byName.code).toBe(0);
    const out = JSON.parse(byName.stdout) as {
      stats: { toolCallsTotal: number };
      messages: { text?: string }[];
    };
    // alice (agent-a4ca7529859c158c2.jsonl) made 24 tool calls; the parent made 40.
    expect(out.stats.toolCallsTotal).toBe(24);
    // The receiver is the parent: its own opening request is in its window.
    const parent = importTranscript(transcriptPath('claude-code-v2-teammates')).transcript;
    const opening = parent.messages.find((m) => m.role === 'user' && m.text)!.text!.slice(0, 60);
    expect(JSON.stringify(out.messages)).toContain(JSON.stringify(opening).slice(1, -1));
    const bob = JSON.parse(render('--direction', 'return', '--child', 'bob').stdout) as typeof out;
    expect(bob.stats.toolCallsTotal).not.toBe(24);
    const names = ['alice', 'bob', 'carol'];
    const byIndex = names.map(
      (_, i) => JSON.parse(render('--direction', 'return', '--child', String(i)).stdout) as typeof out,
    );
    expect(byIndex.map((o) => o.stats.toolCallsTotal)).toContain(24);
  });

  it('an unknown child lists the children; --child with another direction is refused', () => {
    const r = render('--direction', 'return', '--child', 'zoe');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--child: no child "zoe"; children: 0=\w+ \(toolu_/);
    expect(render('--direction', 'escalation', '--child', 'alice').code).toBe(2);
  });
});

describe.skipIf(transcriptsMissing)('render --direction return without --child (issue 28 item 6)', () => {
  it('returns the first child, with the parent up to its spawn call as the receiver history', async () => {
    const { loadInput } = await import('../../harness/cli/commands/render-input.ts');
    const file = transcriptPath('claude-code-v2-teammates');
    const c = await loadInput({ file, strategy: 'full-transcript', direction: 'return' });
    const parent = importTranscript(file).transcript;
    const [firstCall, first] = Object.entries(parent.children!)[0]!;
    expect(c.source.messages).toEqual(first.messages);
    expect(c.receiverHistory!.messages.at(-1)!.toolCalls!.map((x) => x.id)).toEqual([firstCall]);
    // --child 0 is the same case.
    const explicit = await loadInput({ file, strategy: 'full-transcript', direction: 'return', child: '0' });
    expect(explicit.source).toEqual(c.source);
  });
});
