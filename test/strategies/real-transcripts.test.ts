import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Handoff, Transcript } from '../../harness/core/index.ts';
import { importTranscript } from '../../harness/importers/index.ts';
import { messagesTokens } from '../../harness/core/tokens.ts';
import { allTrailItems } from '../../harness/core/transcript/view.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { renderMessage } from '../../strategies/render.ts';
import { expectedAtoms } from './atoms.ts';
import { caseOf, prepare } from './helpers.ts';
import { transcriptsDir, transcriptsMissing } from '../support/transcripts.ts';

/** Example-based checks over the real transcripts (test/support/transcripts.ts: in-repo copies or $HANDOFF_SHARED_DIR). */
const dir = transcriptsDir;
const missing = transcriptsMissing;
const label = missing
  ? `strategies on real transcripts — SKIPPED: ${dir} not found`
  : `strategies on real transcripts in ${dir}`;

const files = [
  'claude-code-nextjs-todo.jsonl',
  'claude-code-v2-teammates',
  'claude-code-v2-jssoundrecorder-parallel.jsonl',
  'sweagent-fc-marshmallow-1867.traj',
  'sweagent-text-pydicom-1458.traj',
  'taubench-gpt4o-airline-task9.json',
  'openhands-multiswe-ponyc.jsonl',
  'inspect-browser-gpt4omini.json',
];
const load = (f: string): Transcript => importTranscript(join(dir, f)).transcript;
const history = (h: Handoff) => h.messages.map(renderMessage).join('\n');

describe.skipIf(missing)(label, () => {
  it.each(files)(
    '%s: parity narration and the own replay carry the same evidence under the retention plan',
    async (f) => {
      const t = load(f);
      const c = caseOf(t);
      const own = history(await prepare('inline', c, { replay: 'planned' }, { budgetTokens: 1e9 }));
      const h = await prepare('parity-narration', c, {}, { budgetTokens: 1e9 });
      const narrated = history(h);
      // Expected from ADR 0093's rule as ./adr-retention.ts writes it, not from the strategy's planner.
      const atoms = expectedAtoms(t);
      for (const a of [...atoms.texts, ...atoms.shown]) {
        expect(own.includes(a), `own view lacks ${a.slice(0, 60)}`).toBe(true);
        expect(narrated.includes(a), `narrated view lacks ${a.slice(0, 60)}`).toBe(true);
      }
      for (const x of atoms.hidden) {
        expect(own.includes(x), `own view shows ${x.slice(0, 60)}`).toBe(false);
        expect(narrated.includes(x), `narrated view shows ${x.slice(0, 60)}`).toBe(false);
      }
      const fates = [...atoms.fates.values()];
      const count = (f: string) => fates.filter((x) => x === f).length;
      expect(h.artifacts.plan).toMatchObject({
        expanded: count('expanded'),
        retained: count('retained'),
        manifest: count('manifest'),
      });
    },
  );

  it.each(files)(
    '%s: under a tight budget parity-narration keeps the task, stays in budget, pairs every call and renders every marker',
    async (f) => {
      const t = load(f);
      const h = await prepare('parity-narration', caseOf(t), {}, { budgetTokens: 12_000 });
      const firstRequest = t.messages.find((m) => m.role === 'user' && m.text?.trim())!.text!;
      expect(history(h)).toContain(firstRequest.slice(0, 2000));
      if (!h.artifacts.overBudget) expect(messagesTokens(h.messages)).toBeLessThanOrEqual(12_000);
      expect(pairingCheck(h.messages).passed).toBe(true);
      expect(h.messages.every((m) => !m.toolCalls?.length)).toBe(true);
      const seen = [h.system, history(h)].join('\n');
      for (const m of h.stats.markers) expect(seen).toContain(m.text);
      expect((h.artifacts.brick as string).length).toBeLessThanOrEqual(3000);
    },
  );

  it.each(files)('%s: every other strategy without a model call keeps calls paired', async (f) => {
    const c = caseOf(load(f));
    for (const [name, params] of [
      ['inline', {}],
      ['full-transcript', {}],
      ['full-transcript', { as: 'messages' }],
      ['brick-only', {}],
      ['brick-only', { markers: true }],
    ] as const) {
      const h = await prepare(name, c, params, { budgetTokens: 30_000 });
      expect(pairingCheck(h.messages).passed, `${name} ${JSON.stringify(params)}`).toBe(true);
    }
  });

  it('teammates: every spawn snapshot excludes its spawn call and all later parent material', async () => {
    const t = load('claude-code-v2-teammates');
    const spawnIds = Object.keys(t.children ?? {});
    expect(spawnIds).toHaveLength(6);
    for (const id of spawnIds) {
      const at = t.messages.findIndex((m) => m.toolCalls?.some((x) => x.id === id));
      const h = await prepare('spawn-all', caseOf(t, { direction: 'spawn', spawnCallId: id }));
      const ids = new Set(h.messages.flatMap((m) => (m.toolCalls ?? []).map((x) => x.id)));
      expect(ids.has(id)).toBe(false);
      const later = t.messages.slice(at + 1).flatMap((m) => (m.toolCalls ?? []).map((x) => x.id));
      for (const x of later) expect(ids.has(x)).toBe(false);
      expect(h.messages.length).toBeGreaterThan(0);
      expect(pairingCheck(h.messages).passed).toBe(true);
    }
  });

  it('teammates: the six children return as merged contracts, with every transcript fetchable on demand', async () => {
    const t = load('claude-code-v2-teammates');
    const children = Object.values(t.children ?? {});
    const h = await prepare(
      'structured-contract',
      caseOf(children[0]!, { direction: 'return', sources: children }),
      {},
      { sim: { sizes: { large: { contractOmitField: 0 } } } },
    );
    const merged = h.artifacts.contract as { transcript_refs: string[]; coverage: { searched: string[] } };
    expect(merged.transcript_refs).toHaveLength(6);
    expect(h.stats.calls).toBe(6);
    // searched locations are unioned: the same command run by two children counts once
    expect(merged.coverage.searched.length).toBeLessThanOrEqual(
      children.reduce((n, c) => n + allTrailItems(c).length, 0),
    );
    expect(merged.coverage.searched.length).toBeGreaterThan(
      Math.max(...children.map((c) => allTrailItems(c).length)),
    );
    const child = children[2]!;
    const item = allTrailItems(child).find((x) => x.result)!;
    const span = h.runTool!({
      id: 'f',
      name: 'fetch_transcript_span',
      input: { ref: merged.transcript_refs[2], tool_call_id: item.call.id },
    });
    expect(span).toContain(item.result!.content.slice(0, 200));
  });
});
