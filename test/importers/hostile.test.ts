import { execFileSync, spawnSync } from 'node:child_process';
import { openSync, closeSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../harness/core/errors.ts';
import { importAll, importTranscript, readPipe } from '../../harness/importers/index.ts';
import { cliPath, repoRoot, runCli } from '../support/cli.ts';
import { assistant, result, text, use, user } from './fixtures.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

/** Hostile inputs of issue 28 item 5 (and item 12's "tool arguments nested 5,000+ deep"). */
/** JSON text with a value nested `n` deep where `"DEEP"` stands (JSON.stringify itself overflows on one). */
const withDeep = (json: string, n = 8000): string => json.replace('"DEEP"', '['.repeat(n) + ']'.repeat(n));
const session = (input: unknown) =>
  jsonl(
    user('go'),
    assistant('m1', use('c1', 'Bash', input as Record<string, unknown>)),
    user([result('c1')]),
    assistant('m2', text('done')),
  );
const noTrace = (stderr: string) => {
  expect(stderr).not.toMatch(/RangeError|internal error|\n\s+at /);
};

describe('tool arguments nested thousands deep', () => {
  const dir = tempFiles({
    'deep.jsonl': withDeep(session({ a: 'DEEP' })),
    'ok.jsonl': session({ command: 'ls' }),
  });
  const file = join(dir, 'deep.jsonl');

  it('is an ImportError naming the file and the field, and import --all goes on past it', () => {
    let err: unknown;
    try {
      importTranscript(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(
      /deep\.jsonl: messages\[1\]\.toolCalls\[0\]\.input\.a.*nested more than 256 levels/,
    );
    const all = importAll(dir, 'auto');
    expect(all.map((s) => [basename(s.file), s.error ? 'error' : 'ok'])).toEqual([
      ['deep.jsonl', 'error'],
      ['ok.jsonl', 'ok'],
    ]);
  });

  it('import, render and case from-session end in one line and exit 2, no stack trace', () => {
    for (const args of [
      ['import', file],
      ['render', '--strategy', 'full-transcript', file],
      ['case', 'from-session', file, '--task', 't'],
    ]) {
      const r = runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('nested more than 256 levels');
      noTrace(r.stderr);
    }
    const all = runCli(['import', '--all', '--stats', dir]);
    expect(all.code).toBe(2);
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => Object.keys(JSON.parse(l)).includes('error')),
    ).toEqual([true, false]);
    noTrace(all.stderr);
  });

  it('a normalised transcript JSON nested as deep is refused by render too', () => {
    const t = {
      agents: {},
      messages: [{ role: 'assistant', toolCalls: [{ id: 'x', name: 'n', input: 'DEEP' }] }],
    };
    const f = join(tempFiles({ 't.json': withDeep(JSON.stringify(t)) }), 't.json');
    const r = runCli(['render', '--strategy', 'full-transcript', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/t\.json: messages\[0\]\.toolCalls\[0\]\.input.*nested more than 256/);
    noTrace(r.stderr);
  });
});

describe('pipes and FIFOs', () => {
  const good = session({ command: 'ls' });

  it('a FIFO with no writer is refused at once, not waited on', async () => {
    const f = join(tempFiles({}), 'fifo.jsonl');
    execFileSync('mkfifo', [f]);
    await expect(readPipe(f)).rejects.toThrow(/nothing to read/);
    // Without readPipe first, the synchronous importers refuse it instead of blocking in read().
    expect(() => importTranscript(f)).toThrow(/not a regular file/);
  });

  it('a FIFO whose writer stays silent gives up after the idle limit', async () => {
    const f = join(tempFiles({}), 'fifo.jsonl');
    execFileSync('mkfifo', [f]);
    const writer = openSync(f, 'r+'); // holds a write end open, writes nothing
    try {
      await expect(readPipe(f, { idleMs: 200 })).rejects.toThrow(/no data for 0.2 s/);
    } finally {
      closeSync(writer);
    }
  });

  it('the CLI on a FIFO with no writer exits 2 with one line', () => {
    const f = join(tempFiles({}), 'fifo.jsonl');
    execFileSync('mkfifo', [f]);
    const r = runCli(['import', '--stats', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/fifo\.jsonl: a FIFO or pipe with nothing to read/);
  });

  it('import <(cat file) reads the pipe once and imports it', () => {
    const f = join(tempFiles({ 's.jsonl': good }), 's.jsonl');
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${cliPath}" import --stats <(cat "${f}")`], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'claude-code', messages: 4, pairedResults: 1 });
  });
});

describe('render: a model-backed strategy over the source model window', () => {
  it('is one line naming the case, strategy and model, exit 2, no stack trace', () => {
    const dir = tempFiles({
      's.jsonl': session({ command: 'ls' }),
      'small.config.mjs': 'export default { sim: { sizes: { large: { contextWindowTokens: 300 } } } };\n',
    });
    for (const strategy of ['summary', 'structured-contract']) {
      const r = runCli([
        'render',
        '--strategy',
        strategy,
        '--config',
        join(dir, 'small.config.mjs'),
        '--no-cache',
        join(dir, 's.jsonl'),
      ]);
      expect(r.code, strategy).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`render: s: ${strategy}: the large model call failed: .*context.*window`),
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      noTrace(r.stderr);
    }
  });
});

describe('OpenHands: one bad line, a cause that points nowhere', () => {
  const event = (e: Record<string, unknown>) => e;
  const action = (id: number, callId: string, command: string) =>
    event({
      id,
      source: 'agent',
      action: 'run',
      args: { command, thought: '' },
      tool_call_metadata: {
        function_name: 'execute_bash',
        tool_call_id: callId,
        model_response: {
          id: `r${id}`,
          choices: [
            {
              message: {
                content: '',
                tool_calls: [{ id: callId, function: { arguments: JSON.stringify({ command }) } }],
              },
            },
          ],
        },
      },
    });
  const obs = (id: number, cause: number | null, callId: string | undefined, content: string) =>
    event({
      id,
      source: 'agent',
      observation: 'run',
      cause,
      content,
      ...(callId ? { tool_call_metadata: { tool_call_id: callId } } : {}),
    });
  const instance = (name: string, history: unknown[]) => ({ instance_id: name, instruction: 'fix', history });
  const user0 = event({ id: 0, source: 'user', action: 'message', args: { content: 'fix it' } });

  it('keeps the other instances and reports the bad line', () => {
    const good = instance('a', [user0, action(1, 'c1', 'ls'), obs(2, 1, 'c1', 'a.py')]);
    const file = join(
      tempFiles({
        'out.jsonl': `${JSON.stringify(good)}\n{"instance_id": "b", "history": [ oops\n${JSON.stringify({ ...good, instance_id: 'c' })}\n`,
      }),
      'out.jsonl',
    );
    const { transcript, stats } = importTranscript(file);
    expect(stats).toMatchObject({ toolCalls: 1, pairedResults: 1, skipped: { bad_record: 1 } });
    expect(transcript.meta?.badRecords).toEqual([
      { line: 2, error: expect.stringMatching(/invalid JSON line/) },
    ]);
    expect(importTranscript(file, { instance: 2 }).transcript.id).toBe('c');
    expect(() => importTranscript(file, { instance: 1 })).toThrow(
      /out\.jsonl:2: instance 1: invalid JSON line.*2 other instances/,
    );
    expect(importAll(file, 'auto').map((s) => (s.error ? 'error' : s.name))).toEqual(['a', 'error', 'c']);
  });

  it('an observation whose cause names no event is kept: paired by its tool_call_metadata, else as a line', () => {
    const history = [
      user0,
      action(1, 'c1', 'ls'),
      obs(2, 99, 'c1', 'a.py b.py'), // cause 99 is in no event here; the metadata names c1
      obs(3, 98, undefined, 'late output'), // no metadata at all
    ];
    const file = join(tempFiles({ 't.json': JSON.stringify(history) }), 't.json');
    const { transcript, stats } = importTranscript(file);
    expect(stats).toMatchObject({ toolCalls: 1, pairedResults: 1, orphans: 0 });
    const results = transcript.messages.flatMap((m) => m.toolResults ?? []);
    expect(results).toEqual([{ callId: 'c1', content: 'a.py b.py' }]);
    expect(transcript.messages.at(-1)!.text).toMatch(
      /cause, event 98, is not in this history\]\nlate output/,
    );
  });
});
