import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Case, Handoff } from '../../harness/core/index.ts';
import { countTokens, messagesTokens } from '../../harness/core/tokens.ts';
import { bounded, boundedArtifacts, seenOf, windowBefore } from '../../harness/runner/cell-views.ts';
import { HandoffMemo } from '../../harness/runner/handoff-memo.ts';
import { resumeModels } from '../../harness/runner/resume-models.ts';
import { batchLine } from '../../harness/runner/reporters.ts';
import { truncatedRoles, unusableAnswer, unusableKind } from '../../harness/calls/unusable.ts';

/**
 * Small runner parts a row or a resume depends on, in process (issue 32 item 2): the bounded views
 * a row keeps, the receiver's window before the handoff, the memo of deterministic handoffs, and which
 * model ids a resume may change.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('bounded views', () => {
  it('a text within the limit is kept whole, the limit itself included', () => {
    expect(bounded('abcde', 5)).toBe('abcde');
    expect(bounded('', 5)).toBe('');
  });

  it('a longer text keeps 40 % head and 60 % tail around a marker counting what was cut', () => {
    const text = 'H'.repeat(50) + 'm'.repeat(100) + 'T'.repeat(50);
    expect(bounded(text, 100)).toBe(
      `${'H'.repeat(40)}\n… (100 characters omitted from this view) …\n${'m'.repeat(10)}${'T'.repeat(50)}`,
    );
    expect(bounded('abcdef', 5)).toBe('ab\n… (1 characters omitted from this view) …\ndef');
  });

  it('artifacts: strings bounded at 8,000 characters, everything else as it is', () => {
    const long = 'x'.repeat(8001);
    const out = boundedArtifacts({ s: long, short: 'ok', n: 3, o: { a: long } });
    expect(out.s).toBe(bounded(long, 8000));
    expect(out.s).not.toBe(long);
    expect(out.short).toBe('ok');
    expect(out.n).toBe(3);
    expect(out.o).toEqual({ a: long });
  });

  it('what the receiver saw: its messages rendered, bounded at 24,000 characters, computed once', () => {
    const h = { system: 's', messages: [{ role: 'user', text: 'y'.repeat(30_000) }] } as unknown as Handoff;
    const seen = seenOf(h);
    expect(seen).toContain('characters omitted from this view');
    expect(seen.length).toBeLessThan(24_100);
    expect(seenOf(h)).toBe(seen);
    const small = {
      system: 's',
      messages: [
        { role: 'user', text: 'one' },
        { role: 'assistant', text: 'two' },
      ],
    } as unknown as Handoff;
    expect(seenOf(small)).toMatch(/one[\s\S]*\n\n[\s\S]*two/);
  });
});

describe('windowBefore', () => {
  it('the receiver history and the task in tokens; 0 without a history or with an empty one', () => {
    const messages = [
      { role: 'user' as const, text: 'Find the pinned API version of every merchant.' },
      { role: 'assistant' as const, text: 'Spawning a researcher.' },
    ];
    const task = 'Write the escalation answer.';
    const c = { task, receiverHistory: { messages, agents: {} } } as unknown as Case;
    expect(windowBefore(c)).toBe(messagesTokens(messages) + countTokens(task));
    expect(windowBefore(c)).toBeGreaterThan(countTokens(task));
    expect(windowBefore({ task } as unknown as Case)).toBe(0);
    expect(windowBefore({ task, receiverHistory: { messages: [], agents: {} } } as unknown as Case)).toBe(0);
  });
});

describe('HandoffMemo', () => {
  const handoff = (n: number) => ({ system: `h${n}`, messages: [] }) as unknown as Handoff;

  it('prepares a key once; the same promise for every later get', async () => {
    const memo = new HandoffMemo();
    let n = 0;
    const a = memo.get('k', async () => handoff(++n));
    const b = memo.get('k', async () => handoff(++n));
    expect(b).toBe(a);
    expect(n).toBe(1);
  });

  it('a failed preparation is dropped, so the next get prepares again', async () => {
    const memo = new HandoffMemo();
    const failed = memo.get('k', async () => {
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    const again = await memo.get('k', async () => handoff(2));
    expect(again.system).toBe('h2');
  });

  it('a failure of an entry already replaced does not drop its replacement', async () => {
    const memo = new HandoffMemo(1);
    let fail!: (e: Error) => void;
    const first = memo.get('a', () => new Promise<Handoff>((_, reject) => (fail = reject)));
    // 'b' evicts 'a' (limit 1); a new 'a' takes its place, then the old 'a' fails.
    memo.get('b', async () => handoff(1));
    const replacement = memo.get('a', async () => handoff(2));
    fail(new Error('late'));
    await expect(first).rejects.toThrow('late');
    let prepared = 0;
    expect(
      memo.get('a', async () => {
        prepared++;
        return handoff(3);
      }),
    ).toBe(replacement);
    expect(prepared).toBe(0);
  });

  it('keeps at most `limit` keys, evicting the least recently used', async () => {
    const memo = new HandoffMemo(2);
    let n = 0;
    const prep = async () => handoff(++n);
    memo.get('a', prep);
    memo.get('b', prep);
    memo.get('a', prep); // a is now the most recent
    memo.get('c', prep); // evicts b
    expect(n).toBe(3);
    memo.get('a', prep);
    expect(n).toBe(3);
    memo.get('b', prep);
    expect(n).toBe(4);
    // Exactly at the limit nothing is evicted: with limit 2, two keys stay.
    const two = new HandoffMemo(2);
    let m = 0;
    const p2 = async () => handoff(++m);
    two.get('x', p2);
    two.get('y', p2);
    two.get('x', p2);
    two.get('y', p2);
    expect(m).toBe(2);
  });
});

describe('resumeModels', () => {
  const runDir = (rows?: unknown[] | string) => {
    const dir = mkdtempSync(join(tmpdir(), 'he-resume-models-'));
    made.push(dir);
    if (rows !== undefined)
      writeFileSync(
        join(dir, 'results.jsonl'),
        typeof rows === 'string' ? rows : rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
      );
    return dir;
  };
  const stored = {
    large: { openai: 'old-large' },
    small: { openai: 'old-small' },
    judge: { openai: 'old-judge' },
  };
  const current = {
    large: { openai: 'new-large' },
    small: { openai: 'new-small' },
    judge: { openai: 'new-judge' },
  };

  it('with no journal every changed id is taken', () => {
    const r = resumeModels(runDir(), stored, current);
    expect(r.models).toEqual(current);
    expect(r.taken).toEqual([
      'models.large.openai old-large → new-large',
      'models.small.openai old-small → new-small',
      'models.judge.openai old-judge → new-judge',
    ]);
  });

  it('an id used by any role of any row stays; blank lines are skipped; the stored config is not changed', () => {
    const dir = runDir(
      '\n' +
        [
          { source_model: 'openai:old-large', receiver_model: 'openai:other' },
          { judge_model: 'openai:old-judge', source_model: 7 },
        ]
          .map((r) => JSON.stringify(r))
          .join('\n  \n') +
        '\n',
    );
    const r = resumeModels(dir, stored, current);
    expect(r.models).toEqual({ ...current, large: { openai: 'old-large' }, judge: { openai: 'old-judge' } });
    expect(r.taken).toEqual(['models.small.openai old-small → new-small']);
    expect(stored.small.openai).toBe('old-small');
    const receiver = runDir([{ receiver_model: 'openai:old-small' }]);
    expect(resumeModels(receiver, stored, current).taken).not.toContain(
      'models.small.openai old-small → new-small',
    );
  });

  it('a journal that cannot be read changes nothing; an alias or provider the current config lacks stays', () => {
    expect(resumeModels(runDir('{ not json\n'), stored, current)).toEqual({ models: stored, taken: [] });
    const r = resumeModels(runDir(), { ...stored, extra: { openai: 'x' } }, { large: { anthropic: 'y' } });
    expect(r.taken).toEqual([]);
  });
});

describe('batchLine', () => {
  it('state alone, or with counts: done = succeeded + failed, a missing count read as 0', () => {
    expect(batchLine({ provider: 'openai', batchId: 'b1', state: 'validating' } as never)).toBe(
      'batch openai b1: validating',
    );
    expect(
      batchLine({
        provider: 'openai',
        batchId: 'b1',
        state: 'in_progress',
        total: 40,
        succeeded: 11,
        failed: 1,
      } as never),
    ).toBe('batch openai b1: in_progress · 12/40 done (11 succeeded, 1 failed)');
    expect(
      batchLine({ provider: 'anthropic', batchId: 'b2', state: 'ended', total: 3, failed: 2 } as never),
    ).toBe('batch anthropic b2: ended · 2/3 done (0 succeeded, 2 failed)');
    expect(
      batchLine({ provider: 'anthropic', batchId: 'b2', state: 'ended', total: 3, succeeded: 3 } as never),
    ).toBe('batch anthropic b2: ended · 3/3 done (3 succeeded, 0 failed)');
  });
});

describe('unusable answers and cut roles', () => {
  const call = { id: 'c1', name: 'grep', input: {} };
  it('an answer with a tool call and no text is usable as a call, not as a final answer', () => {
    const r = { text: ' ', toolCalls: [call], stopReason: 'tool_use' };
    expect(unusableKind(r)).toBeNull();
    expect(unusableAnswer(r)).toBe('empty_answer');
    expect(unusableKind({ text: 'fine', toolCalls: [], stopReason: 'end_turn' })).toBeNull();
  });

  it('cut roles: a source call or the last receiver answer at max_tokens; a judge cut never counts', () => {
    const at = (role: 'source' | 'receiver' | 'judge', stopReason: string) => ({
      role,
      response: { stopReason },
    });
    expect(truncatedRoles([at('judge', 'max_tokens'), at('receiver', 'end_turn')], false)).toEqual({});
    expect(truncatedRoles([at('receiver', 'length'), at('receiver', 'end_turn')], false)).toEqual({});
    expect(truncatedRoles([at('source', 'end_turn'), at('receiver', 'max_tokens')], true)).toEqual({
      truncated: ['receiver'],
      truncation_allowed: true,
    });
    expect(truncatedRoles([at('source', 'model_context_window_exceeded')], false)).toEqual({
      truncated: ['source'],
      truncation_allowed: false,
    });
  });
});
