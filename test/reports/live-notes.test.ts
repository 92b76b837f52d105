import { describe, expect, it } from 'vitest';
import { liveNotes } from '../../reports/live-section.ts';
import type { ArmSummary, SuiteSummary } from '../../reports/summary/types.ts';

/**
 * The notes under the live table, shared by the Markdown and HTML reports: whose session an own
 * agent's columns came from, and how the live inline arm ran. Only the fields the notes read are set.
 */
function arm(name: string, strategy: string, live: Record<string, unknown>): ArmSummary {
  return { arm: name, strategy, baseline: false, live: { sourceCells: 3, ...live } } as unknown as ArmSummary;
}
const suiteOf = (...arms: ArmSummary[]) => ({ arms }) as unknown as SuiteSummary;
const label = (a: ArmSummary) => `[${a.arm}]`;

describe('liveNotes', () => {
  it('names the own agent when every arm that ran a source ran it, and no inline note then', () => {
    const notes = liveNotes(
      suiteOf(arm('inline', 'inline', { ownSource: 'mine' }), arm('sum', 'summary', { ownSource: 'mine' })),
      label,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^Source: your own agent `mine` \(`--source`\), run once per cell/);
  });

  it('names no agent when arms ran different sources, or none ran one', () => {
    const mixed = suiteOf(
      arm('a', 'summary', { ownSource: 'one' }),
      arm('b', 'summary', { ownSource: 'two' }),
    );
    expect(liveNotes(mixed, label)).toEqual([]);
    const simOnly = suiteOf(arm('a', 'summary', {}));
    expect(liveNotes(simOnly, label)).toEqual([]);
  });

  it('ignores a spawned arm that ran no source of its own', () => {
    const notes = liveNotes(
      suiteOf(arm('a', 'summary', { ownSource: 'mine' }), arm('child', 'summary', { sourceCells: 0 })),
      label,
    );
    expect(notes[0]).toContain('`mine`');
  });

  it("says how the sim's inline arm ran: inside the parent's window or replayed", () => {
    const prefix = liveNotes(suiteOf(arm('in', 'inline', { inlinePrefix: true })), label);
    expect(prefix).toEqual([
      "Live inline ([in]): its research ran inside the parent's window (`--live-inline prefix`), so its latency and tokens include the parent's prefill on every research turn.",
    ]);
    const replay = liveNotes(suiteOf(arm('in', 'inline', {})), label);
    expect(replay[0]).toMatch(/^Live inline \(\[in\]\): its research ran like every arm's and is replayed/);
    // An inline arm whose source never ran (a spawned child) gets no note.
    expect(liveNotes(suiteOf(arm('in', 'inline', { sourceCells: 0 })), label)).toEqual([]);
  });
});
