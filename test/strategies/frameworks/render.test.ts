import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Direction, Transcript } from '../../../harness/core/index.ts';
import { loadInput } from '../../../harness/cli/commands/render-input.ts';
import { importTranscript } from '../../../harness/importers/index.ts';
import { pairingCheck } from '../../../judges/checks.ts';
import { strategies } from '../../../strategies/index.ts';
import { contextFor } from '../helpers.ts';
import { resolveParams } from '../../../strategies/define.ts';
import { transcriptsDir } from '../../support/transcripts.ts';

// `render --strategy <framework strategy> <session>` on every importable format: each shipped real
// session (test/fixtures/transcripts, and the shared folder when present) as an escalation, a spawn
// from its first spawn call, and the return of its first child where it has children — built the way
// the render command builds them (loadInput), handed over by every framework strategy.

const frameworkNames = [
  'agents-sdk-full',
  'agents-sdk-nested',
  'agents-sdk-remove-tools',
  'agents-as-tool',
  'langgraph-full-history',
  'langgraph-last-message',
  'adk-no-contents',
  'ag2-carryover-last',
  'ag2-carryover-reflection',
  'crewai-task-context',
  'claude-code-task',
  'observation-masking',
] as const;

const shipped = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const sessions = [...new Set([shipped, transcriptsDir])].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => !/\.(md|orig)$/.test(f))
    .map((f) => join(dir, f)),
);

function hasSpawn(t: Transcript): boolean {
  return Object.keys(t.children ?? {}).length > 0;
}

describe('render: every framework strategy on every shipped session', () => {
  it('lists every framework strategy in the registry', () => {
    for (const n of frameworkNames) expect(Object.keys(strategies)).toContain(n);
  });

  it.each(sessions)('%s', async (file) => {
    const t = importTranscript(file).transcript;
    const shapes: { direction: Direction; child?: string }[] = [{ direction: 'escalation' }];
    if (hasSpawn(t)) shapes.push({ direction: 'return', child: '0' }, { direction: 'spawn' });
    for (const shape of shapes)
      for (const name of frameworkNames) {
        const c = await loadInput({ file, strategy: name, ...shape });
        const s = strategies[name];
        const h = await s.prepare(contextFor(c), resolveParams(s, {}) as never);
        const where = `${name} ${shape.direction} ${file}`;
        expect(pairingCheck(h.messages).detail, where).toBe(pairingCheck([...h.messages]).detail);
        expect(pairingCheck(h.messages).passed, where).toBe(true);
        // ADK sends no contents; CrewAI adds no context block when the tasks' outputs are empty (a
        // session that ended on a tool call never produced an output).
        const empty = name === 'adk-no-contents' || (name === 'crewai-task-context' && h.payload === '');
        if (!empty) expect(h.messages.length, where).toBeGreaterThan(0);
      }
  });

  it('the CLI renders a framework strategy from a recorded session (exit 0, the handoff on stdout)', () => {
    const bin = fileURLToPath(new URL('../../../bin/handoff-eval.js', import.meta.url));
    const out = execFileSync(
      process.execPath,
      [
        bin,
        'render',
        '--strategy',
        'claude-code-task',
        '--direction',
        'return',
        '--child',
        '0',
        '--json',
        join(shipped, 'claude-code-v2-teammates'),
      ],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(out).toContain('agentId: ');
    expect(out).toContain('<usage>total_tokens: ');
  });
});
