import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import yargs from 'yargs';
import { importCommand } from '../../harness/cli/commands/import.ts';
import { register } from '../../harness/cli/command.ts';
import { ImportError } from '../../harness/core/errors.ts';
import { assistant, result, text, use, user } from './fixtures.ts';
import { jsonl, shared, sharedMissing, tempFiles } from './shared-transcripts.ts';

/** Runs `handoff-eval <argv>` with only the import command registered; returns what went to stdout. */
async function run(argv: string[]): Promise<{ stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  await register(yargs(argv), importCommand, () => {})
    .strict()
    .exitProcess(false)
    .fail(false)
    .parseAsync();
  vi.restoreAllMocks();
  return { stdout: out.join(''), stderr: err.join('') };
}

afterEach(() => vi.restoreAllMocks());

const dir = tempFiles({
  's.jsonl': jsonl(
    user('go'),
    assistant('m1', use('c1')),
    user([result('c1')]),
    assistant('m2', text('done')),
  ),
});
const session = join(dir, 's.jsonl');

describe('handoff-eval import', () => {
  it('--stats prints exactly one JSON object with the stats keys', async () => {
    const { stdout } = await run(['import', session, '--stats']);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const stats = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(stats)).toEqual([
      'format',
      'messages',
      'toolCalls',
      'pairedResults',
      'orphans',
      'errors',
      'children',
      'agents',
      'skipped',
    ]);
    expect(stats).toEqual({
      format: 'claude-code',
      messages: 4,
      toolCalls: 1,
      pairedResults: 1,
      orphans: 0,
      errors: 0,
      children: 0,
      agents: 1,
      skipped: {},
    });
  });

  it('without --out prints the normalised transcript', async () => {
    const { stdout } = await run(['import', session]);
    const transcript = JSON.parse(stdout) as { messages: unknown[]; agents: Record<string, unknown> };
    expect(transcript.messages).toHaveLength(4);
    expect(transcript.agents).toEqual({ main: { role: 'primary', model: 'claude-test' } });
  });

  it('--out writes the file and keeps stdout clean', async () => {
    const out = join(dir, 'out.json');
    const { stdout, stderr } = await run(['import', session, '--from', 'claude-code', '--out', out]);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/wrote .*out\.json: 4 messages, 1 tool calls, 0 children/);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { messages: unknown[] }).messages).toHaveLength(4);
  });

  it('rejects an unknown --from and reports bad input as an ImportError with its location', async () => {
    await expect(run(['import', session, '--from', 'word'])).rejects.toThrow(/Invalid values/);
    await expect(run(['import', session, '--from', 'openai'])).rejects.toThrow(ImportError);
    await expect(run(['import', session, '--from', 'openai'])).rejects.toThrow(/s\.jsonl:2: invalid JSON/);
  });

  it.skipIf(sharedMissing)(
    '--instance and --sample reach the importers (real files; skipped without the shared transcripts)',
    async () => {
      const oh = JSON.parse(
        (await run(['import', shared('openhands-multiswe-ponyc.jsonl'), '--instance', '2', '--stats']))
          .stdout,
      ) as { toolCalls: number };
      expect(oh.toolCalls).toBe(49);
      const inspect = JSON.parse(
        (await run(['import', shared('inspect-browser-gpt4omini.json'), '--sample', '0', '--stats'])).stdout,
      ) as { format: string };
      expect(inspect.format).toBe('inspect');
    },
  );
});
