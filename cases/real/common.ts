import { writeFileAtomic } from '../../harness/core/atomic-write.ts';
import { join } from 'node:path';
import type { Assertion, ClaimLocation, Draft, Message, Transcript } from '../../harness/core/index.ts';
import { importTranscript } from '../../harness/importers/index.ts';
import { indexText, matchClaim } from '../../harness/core/text/cues.ts';

/** Where each real transcript came from (the shared README's table), for the provenance object. */
export const origins = {
  teammates: {
    repo: 'daaain/claude-code-log',
    path: 'test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl (+ subagents/)',
    commit: 'added upstream in 6b7e18837c38 (PR #125); bytes from iansherr/claude-code-log f0d148af2b88',
    license: 'MIT',
  },
  jssound: {
    repo: 'daaain/claude-code-log',
    path: 'test/test_data/real_projects/-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl',
    commit: 'added d473984f7f6e (PR #52); bytes from iansherr/claude-code-log f0d148af2b88',
    license: 'MIT',
  },
  marshmallow: {
    repo: 'SWE-agent/SWE-agent',
    path: 'trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__function_calling_replace_from_source/marshmallow-code__marshmallow-1867.traj',
    commit: '43ea05d2c727 (snapshot 3ea751c087f3)',
    license: 'MIT',
  },
} as const;

export const LABELLER =
  'labelled by hand by the cases helper (issue 5); statements are verbatim substrings of the transcript';

export function load(dir: string, file: string): Transcript {
  return importTranscript(join(dir, file)).transcript;
}

/** Drops importer metadata that names local paths; keeps the counts. */
export function clean(t: Transcript, keep: { id?: string; meta?: Record<string, unknown> } = {}): Transcript {
  const out: Draft<Transcript> = { agents: t.agents, messages: t.messages.map(cleanMessage) };
  if (keep.id) out.id = keep.id;
  if (keep.meta) out.meta = keep.meta;
  return out;
}

function cleanMessage(m: Message): Message {
  const out: Draft<Message> = { role: m.role };
  if (m.agent !== undefined) out.agent = m.agent;
  if (m.text !== undefined) out.text = m.text;
  if (m.toolCalls) out.toolCalls = m.toolCalls;
  if (m.toolResults) out.toolResults = m.toolResults;
  if (m.compacted) out.compacted = true;
  return out;
}

/** Text of every message, for checking that a label's statement is really in the transcript. */
function allText(ts: Transcript[]): string {
  return ts
    .flatMap((t) => t.messages.flatMap((m) => [m.text ?? '', ...(m.toolResults ?? []).map((r) => r.content)]))
    .join('\n');
}

/** A label whose statement is not verbatim in the transcript, or whose cues miss it, is a labelling bug. */
export function checkLabels(assertions: Assertion[], sources: Transcript[]): void {
  const text = allText(sources);
  const index = indexText(text);
  for (const a of assertions) {
    if (!text.includes(a.statement))
      throw new Error(
        `label ${a.id}: statement is not verbatim in the transcript: ${a.statement.slice(0, 80)}`,
      );
    const m = matchClaim(index, a);
    if (!m.present) throw new Error(`label ${a.id}: cues not found on one line`);
    if (a.kind !== 'confident' && !m.qualified)
      throw new Error(`label ${a.id}: qualifier not found next to the claim`);
  }
}

export function write(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 1)}\n`);
}

export const conf = (id: string, statement: string, cues: string[], provenance?: string[]): Assertion => ({
  id,
  kind: 'confident',
  statement,
  claim: statement,
  cues,
  ...(provenance ? { provenance } : {}),
});
export const qual = (
  id: string,
  kind: Assertion['kind'],
  statement: string,
  claim: string,
  cues: string[],
  qualifierCues: string[],
): Assertion => ({ id, kind, statement, claim, cues, qualifierCues });

/** A label with where the source put it (read off the session by hand; the loader checks it). */
export const at = (location: ClaimLocation, a: Assertion): Assertion => ({ ...a, location });
