import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Case, ModelRequestInput, Transcript, World } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { runSourceLoop } from '../../harness/live/loop.ts';
import { simHintsOf } from '../../strategies/compose.ts';
import { liveSimHints, recordedEdits } from '../../harness/live/edit-hints.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * The sim as a coding agent in a writable world (issue 29 item 2; harness/providers/sim/act-code.ts):
 * it lists the repository, reads what the listing shows, makes the recorded session's change only
 * once its own calls showed it that file, runs the world's tests, and reports what the run printed.
 */
let milk: Case[] = [];
const open: WorldAccess[] = [];
beforeAll(async () => {
  const [s] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'milk' }]);
  milk = s!.cases.filter((c) => c.world);
});
afterAll(() => open.forEach((w) => w.close()));

async function live(c: Case, rep = 0, world: World = c.world!) {
  const sim = createSimProvider();
  const access = diskAccess(materializeWorld(world, c.id));
  open.push(access);
  let n = 0;
  const call = (r: ModelRequestInput) =>
    sim.generate({ ...r, model: 'sim-small', seed: `1/${c.id}/${rep}/act#${n++}` });
  const out = await runSourceLoop({
    recorded: c.source,
    tools: createWorldTools(access),
    budget: 12,
    call,
    sim: liveSimHints({ ...c, world }, c.source, simHintsOf(c)),
  });
  return { out, access };
}
const steps = (t: Transcript) => {
  const results = new Map(t.messages.flatMap((m) => m.toolResults ?? []).map((r) => [r.callId, r]));
  return t.messages
    .flatMap((m) => m.toolCalls ?? [])
    .map((c) => ({ name: c.name, input: c.input as Record<string, string>, result: results.get(c.id)! }));
};

describe('the sim in a writable world', () => {
  it('hints only the changes the recorded session made in answer to its brief (not the later turns)', () => {
    const c = milk[0]!;
    const edits = recordedEdits(c.source);
    expect(edits.map((e) => e.name)).toEqual(['edit_file', 'edit_file']);
    const all = c.source.messages.flatMap((m) => m.toolCalls ?? []).filter((x) => x.name === 'edit_file');
    expect(all.length).toBe(3); // the regression test of the second turn is not hinted
  });

  it('changes a file only after its own calls showed it that file, then runs the tests', async () => {
    let fixedAndGreen = 0;
    for (const c of milk)
      for (const rep of [0, 1]) {
        const s = steps((await live(c, rep)).out.transcript);
        expect(s[0]!.name, c.id).toBe('list_files');
        s.forEach((x, i) => {
          if (x.name !== 'edit_file' && x.name !== 'write_file') return;
          const before = s.slice(0, i);
          expect(
            before.some((b) => b.name === 'read_file' && b.input.path === x.input.path && !b.result.isError),
            `${c.id}: ${x.name} ${x.input.path} before reading it`,
          ).toBe(true);
          // Tests run after the last change.
          expect(s.slice(i + 1).some((b) => b.name === 'run_tests')).toBe(true);
        });
        const run = s.filter((x) => x.name === 'run_tests').at(-1);
        if (s.some((x) => x.input.old_string) && run && !run.result.isError) fixedAndGreen++;
      }
    expect(fixedAndGreen).toBeGreaterThan(milk.length / 2);
  });

  it('never changes a file it could not have seen: with the source file absent from the listing, no fix', async () => {
    const c = milk.find((x) => x.id.includes('durations'))!;
    const src = 'src/durations/core.py';
    const files = { ...c.world!.files };
    const text = files[src]!;
    delete files[src];
    // The same code under a name the listing shows but the sim does not read (not a code file).
    const world: World = { ...c.world!, files: { ...files, 'core.py.txt': text } };
    const s = steps((await live(c, 0, world)).out.transcript);
    expect(s.some((x) => x.name === 'edit_file' && x.input.old_string !== undefined)).toBe(false);
  });

  it('its report gives the last test run as printed, and says when the tests fail', async () => {
    const c = milk[0]!;
    const { out } = await live(c);
    const s = steps(out.transcript);
    const run = s.filter((x) => x.name === 'run_tests').at(-1)!;
    const last = run.result.content
      .trim()
      .split('\n')
      .at(-1)!
      .replace(/^=+\s*|\s*=+$/g, '');
    expect(out.transcript.messages.at(-1)!.text).toContain(last);
    expect(out.transcript.messages.at(-1)!.text).toMatch(run.result.isError ? /\(failing\)/ : /\(passing\)/);
  });
});
