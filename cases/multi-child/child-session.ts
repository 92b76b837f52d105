import type { Assertion } from '../../harness/types.ts';
import type { Merchant } from '../ledgerline/world.ts';
import { grep, numbered, renderGrep } from '../lib/text.ts';
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

export function search(files: Record<string, string>, pattern: string, context: number): CallSpec {
  return {
    name: 'search_code',
    input: { pattern, path: '.', context },
    result: renderGrep(files, grep(files, new RegExp(pattern)), context),
  };
}

export function read(files: Record<string, string>, path: string): CallSpec {
  return files[path]
    ? { name: 'read_file', input: { path }, result: numbered(files[path]!) }
    : {
        name: 'read_file',
        input: { path },
        result: `Error: ENOENT: no such file or directory, open '${path}'`,
        isError: true,
      };
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
