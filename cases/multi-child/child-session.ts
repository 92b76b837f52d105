import type { Assertion, Transcript } from '../../harness/core/index.ts';
import type { GroundTruth, LedgerWorld, Merchant } from '../ledgerline/world.ts';
import { memoryAccess } from '../../harness/live/access.ts';
import { createWorldTools, type WorldTools } from '../../harness/live/tools.ts';
import { SessionBuilder, type CallSpec } from '../lib/session.ts';
import type { ChildName, MultiRemark } from './spread.ts';

/** What the four multi-child sessions are built with: their tools, their report, their labels. */

export const HEDGE_Q = [
  'could not determine',
  'could not confirm',
  'unclear',
  'unknown',
  'not verified',
  'unverified',
];
export const ASSUME_Q = ['assuming', 'assumption', 'assumed'];
export const rows = (ms: Merchant[]) =>
  ms.map((m) => [m.id, m.name, m.adapter, m.apiVersion, m.region, m.currency, m.createdAt, m.updatedAt]);
export const conf = (id: string, statement: string, cues: string[], provenance: string[]): Assertion => ({
  id,
  kind: 'confident',
  statement,
  claim: statement,
  cues,
  provenance,
});
export const qual = (
  id: string,
  kind: Assertion['kind'],
  statement: string,
  claim: string,
  cues: string[],
  q: string[],
): Assertion => ({ id, kind, statement, claim, cues, qualifierCues: q });

export function session(name: ChildName, idPrefix: string, brief: string, remarks: readonly MultiRemark[]) {
  const s = new SessionBuilder(name, 'child', `${idPrefix}_${name}`, 'large');
  s.user(brief, 'parent');
  // A remark is said in the step right after the one that raised it, before that step's plan.
  let step = 0;
  const act = s.act.bind(s);
  s.act = (text, ...calls) => {
    const said = remarks.filter((r) => r.child === name && r.afterStep === step - 1);
    step++;
    return act([...said.map((r) => r.assertion.statement), text].filter(Boolean).join('\n\n'), ...calls);
  };
  return s;
}

/**
 * Searches and reads are recorded through the live tools over the case's files (harness/live/tools.ts),
 * so they are what a live child would see; the recording keeps its own argument name (`pattern`).
 */
const toolsOf = new WeakMap<Record<string, string>, WorldTools>();
function recorded(files: Record<string, string>, name: string, input: Record<string, unknown>) {
  let tools = toolsOf.get(files);
  if (!tools) toolsOf.set(files, (tools = createWorldTools(memoryAccess({ files }))));
  const out = tools.run({ name, input });
  return { result: out.content, ...(out.isError ? { isError: true } : {}) };
}

export function search(files: Record<string, string>, pattern: string, context: number): CallSpec {
  return {
    name: 'search_code',
    input: { pattern, path: '.', context },
    ...recorded(files, 'search_code', { query: pattern, path: '.', context }),
  };
}

export function read(files: Record<string, string>, path: string): CallSpec {
  return { name: 'read_file', input: { path }, ...recorded(files, 'read_file', { path }) };
}

export function report(
  s: SessionBuilder,
  title: string,
  found: Assertion[],
  caveats: Assertion[],
  searched: string[],
  notSearched: string[],
) {
  s.say(
    [
      title,
      '',
      ...found.map((a) => `- ${a.statement}`),
      '',
      'Caveats:',
      ...caveats.map((a) => `- ${a.statement}`),
      '',
      `Searched: ${searched.join(', ')}.`,
      `Not searched: ${notSearched.join(', ')}.`,
    ].join('\n'),
  );
}

/** What a child hands back: its session, its labelled claims, what it did not search. */
export interface ChildOut {
  transcript: Transcript;
  assertions: Assertion[];
  notSearched: string[];
}

export interface Shared {
  w: LedgerWorld;
  t: GroundTruth;
  files: Record<string, string>;
  /** Rows as of last night: merchants upgraded today still show 2023-10 there. */
  snapshot: Merchant[];
  upgradedToday: string[];
}

export const NONE_SEARCHED = ['webhook endpoint versions in the provider dashboard', 'the infra repository'];
