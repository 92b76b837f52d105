import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../harness/core/errors.ts';
import { importTranscript, type ImportOptions } from '../../harness/importers/index.ts';
import { assistant, result, text, use, user } from './fixtures.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

const write = (name: string, content: string): string => join(tempFiles({ [name]: content }), name);

/** Imports and returns the ImportError; fails the test if anything else (or nothing) is thrown. */
function importError(file: string, options: ImportOptions = {}): ImportError {
  try {
    importTranscript(file, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ImportError);
    const e = err as ImportError;
    expect(e.file).toBe(file);
    expect(e.message.startsWith(file)).toBe(true);
    return e;
  }
  throw new Error(`expected ${file} to fail`);
}

const session = jsonl(
  user('go'),
  assistant('m1', use('c1')),
  user([result('c1')]),
  assistant('m2', text('done')),
);

describe('truncated input', () => {
  it('a cut-off LAST line of a JSONL session is a counted skip', () => {
    const file = write('s.jsonl', `${session}{"type":"assistant","message":{"id":"m3","con`);
    const { stats } = importTranscript(file);
    expect(stats).toMatchObject({ messages: 4, pairedResults: 1, skipped: { truncated_line: 1 } });
  });

  it('a cut-off line in the middle is an error with its line number', () => {
    const lines = session.split('\n');
    lines[1] = lines[1]!.slice(0, 40);
    const e = importError(write('s.jsonl', lines.join('\n')));
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/:2: invalid JSON line/);
  });

  it('a truncated JSON document names the line where it breaks', () => {
    const doc = JSON.stringify(
      {
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      },
      null,
      2,
    );
    for (const options of [{ from: 'openai' as const }, {}]) {
      const e = importError(write('c.json', doc.slice(0, doc.length - 30)), options);
      expect(e.line).toBe(doc.slice(0, doc.length - 30).split('\n').length);
      expect(e.message).toMatch(/invalid JSON/);
    }
  });

  it('a middle OpenHands line cut off is an error of that instance only; the last one is skipped', () => {
    const line = JSON.stringify({
      instance_id: 'a',
      history: [{ id: 1, source: 'user', action: 'message', args: { content: 'x' } }],
    });
    // One bad line costs only its own instance (issue 28 item 5): the others import, the bad one is reported.
    const file = write('o.jsonl', `${line}\n${line.slice(0, 30)}\n${line}\n`);
    expect(importTranscript(file).stats.skipped).toEqual({ bad_record: 1 });
    expect(importError(file, { instance: 1 }).line).toBe(2);
    expect(importTranscript(write('o.jsonl', `${line}\n${line.slice(0, 30)}`)).stats.skipped).toEqual({
      truncated_line: 1,
    });
  });
});

describe('unknown block types', () => {
  it('Claude Code: the line of the unknown block', () => {
    const file = write(
      's.jsonl',
      jsonl(
        user('go'),
        assistant('m1', text('hi')),
        assistant('m1', { type: 'server_tool_use', id: 'x', name: 'web_search' }),
      ),
    );
    const e = importError(file);
    expect(e.line).toBe(3);
    expect(e.message).toContain('message.content[0]: unknown content block type "server_tool_use"');
  });

  it('Claude Code: an unknown block inside a tool result', () => {
    const file = write(
      's.jsonl',
      jsonl(user('go'), assistant('m1', use('c1')), user([result('c1', [{ type: 'hologram' }])])),
    );
    expect(importError(file).message).toMatch(
      /:3: message\.content\[0\]\.content\[0\]: unknown tool result block type "hologram"/,
    );
  });

  it('Anthropic JSON: the line where the unknown block starts', () => {
    const doc = JSON.stringify(
      {
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'mystery' }] },
        ],
      },
      null,
      2,
    );
    const e = importError(write('a.json', doc), { from: 'anthropic' });
    // The block's "{" is on the line before its "type": "mystery" line.
    expect(e.line).toBe(doc.split('\n').findIndex((l) => l.includes('"mystery"')));
    expect(e.message).toContain('messages[1].content[1]: unknown content block type "mystery"');
  });
});

describe('a file of another format', () => {
  const openaiDoc = JSON.stringify(
    [
      { role: 'system', content: 's' },
      { role: 'user', content: 'hi' },
    ],
    null,
    2,
  );

  it('--from openai on a Claude Code JSONL: line 2, with a JSONL hint', () => {
    const e = importError(write('s.jsonl', session), { from: 'openai' });
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/is this JSONL\?/);
  });

  it('--from claude-code on an OpenAI document', () => {
    const e = importError(write('c.json', JSON.stringify({ traj: [] })), { from: 'claude-code' });
    expect(e.line).toBe(1);
    expect(e.message).toMatch(/not a Claude Code session line/);
  });

  it('--from openhands on a Claude Code session', () => {
    expect(importError(write('s.jsonl', session), { from: 'openhands' }).message).toMatch(
      /:1: not an OpenHands EvalOutput line/,
    );
  });

  it('--from inspect / swe-agent on an OpenAI document', () => {
    expect(importError(write('c.json', openaiDoc), { from: 'inspect' }).message).toMatch(
      /:1: not an inspect_ai EvalLog/,
    );
    expect(importError(write('c.json', openaiDoc), { from: 'swe-agent' }).message).toMatch(
      /:1: not a SWE-agent trajectory/,
    );
  });

  it('--from anthropic on OpenAI messages: the line of the offending role', () => {
    const e = importError(write('c.json', openaiDoc), { from: 'anthropic' });
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/\[0\]\.role: role "system" is not an Anthropic role.*try --from openai/);
  });

  it('auto detection that recognises nothing says so', () => {
    expect(importError(write('x.json', JSON.stringify({ hello: 'world' }))).message).toMatch(
      /unrecognised transcript format; the formats read are claude-code, .*codex, responses, gemini \(pass --from/,
    );
    expect(importError(write('x.txt', 'just some notes\nmore')).message).toMatch(
      /:1: invalid JSON \(neither a JSON document nor JSON Lines\)/,
    );
  });
});

describe('missing and unsupported inputs', () => {
  it('a missing file, for auto and for each explicit format', () => {
    for (const from of [
      'auto',
      'claude-code',
      'openai',
      'anthropic',
      'swe-agent',
      'openhands',
      'inspect',
      'codex',
      'responses',
      'gemini',
    ] as const) {
      const file = join(tempFiles({}), 'nope.json');
      expect(importError(file, { from }).message).toMatch(/no such file/);
    }
  });

  it('a .eval that is not a zip is refused; a sample out of range lists the count', () => {
    expect(importError(write('log.eval', 'PK…')).message).toMatch(/not a readable inspect \.eval zip/);
    const log = write(
      'log.json',
      JSON.stringify({ version: 2, eval: { model: 'm' }, samples: [{ id: 1, messages: [] }] }),
    );
    expect(importError(log, { sample: 3 }).message).toMatch(/no sample 3; this log has 1/);
  });
});
