import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CaseValidationError } from '../harness/core/errors.ts';
import type { Assertion, Transcript } from '../harness/core/index.ts';
import { tooDeep, toCase } from './load.ts';
import { modelProposals, readLocations } from './model-labeller.ts';
import { proposeLabels } from './propose-labels.ts';

export interface LabelOptions {
  /** `anthropic:<model>` / `openai:<model>`: also ask a model (cases/model-labeller.ts). */
  labeller?: string;
  config?: string;
}

/**
 * `case label <case.json>`: (re)proposes assertions for a case from its source transcripts. Labels a
 * person confirmed (no `status`, or `confirmed`) are kept as they are; earlier proposals are
 * replaced by the new ones; a proposal whose statement a kept label already has is not added.
 */
export async function labelCaseFile(file: string, o: LabelOptions = {}): Promise<Record<string, unknown>> {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch (err) {
    throw new CaseValidationError(
      file,
      undefined,
      '(file)',
      `cannot read as JSON: ${(err as Error).message}`,
    );
  }
  tooDeep(file, raw);
  const c = await toCase(raw, file, dirname(file), {
    id: String(raw.suite ?? 'label'),
    criteria: [],
    direction: 'return',
  });
  const sources = c.sources ?? [c.source];
  const proposals = await proposalsFor(sources, { ...o, caseId: c.id });
  const kept = c.assertions.filter((a) => a.status !== 'proposed');
  const located = await locateProposals(sources, mergeProposals(kept, proposals), { ...o, caseId: c.id });
  const provenance = typeof raw.provenance === 'object' && raw.provenance !== null ? raw.provenance : {};
  return {
    ...raw,
    assertions: located.assertions,
    provenance: {
      ...provenance,
      labels: { ...labelCounts(located.assertions, o.labeller), ...located.provenance },
    },
  };
}

/** Deterministic proposals, then (with a labeller) the model's, merged. */
export async function proposalsFor(
  sources: readonly Transcript[],
  o: LabelOptions & { caseId: string },
): Promise<Assertion[]> {
  const own = proposeLabels(sources);
  if (!o.labeller) return own;
  const model = await modelProposals(sources, { spec: o.labeller, config: o.config, caseId: o.caseId });
  return mergeProposals(own, model);
}

/**
 * With a labeller model (issue 26): each proposal's location is the one the model reads in the
 * session (final message, between tool calls, only in a tool result — judges/source-claims.ts), not
 * the lexicon's guess; a proposal it reads nowhere keeps no location. The lexicon's location is the
 * first opinion: `provenance.labels.locations` lists where the two differ and what was read nowhere.
 * Confirmed labels are never touched. Without a labeller nothing changes.
 */
export async function locateProposals(
  sources: readonly Transcript[],
  assertions: Assertion[],
  o: LabelOptions & { caseId: string },
): Promise<{ assertions: Assertion[]; provenance: Record<string, unknown> }> {
  const proposed = assertions.filter((a) => a.status === 'proposed');
  if (!o.labeller || proposed.length === 0) return { assertions, provenance: {} };
  const reading = await readLocations(sources, proposed, {
    spec: o.labeller,
    config: o.config,
    caseId: o.caseId,
  });
  const read = new Map(reading.claims.map((x) => [x.assertionId, x.location]));
  const differ: { id: string; lexicon: string | null; read: string }[] = [];
  const out = assertions.map((a) => {
    const at = read.get(a.id);
    if (at === undefined) return a;
    if ((a.location ?? null) !== at) differ.push({ id: a.id, lexicon: a.location ?? null, read: at });
    const { location: _lexicon, ...rest } = a;
    return at === 'not_made' ? rest : { ...rest, location: at };
  });
  return {
    assertions: out,
    provenance: { locations: { by: o.labeller, read: proposed.length, lexicon_differs: differ } },
  };
}

/** `base` as it is, then each addition whose statement none has yet; ids made unique. */
export function mergeProposals(base: Assertion[], additions: Assertion[]): Assertion[] {
  const out = [...base];
  const statements = new Set(base.map((a) => norm(a.statement)));
  const ids = new Set(base.map((a) => a.id));
  for (const a of additions) {
    if (statements.has(norm(a.statement))) continue;
    statements.add(norm(a.statement));
    let id = a.id;
    for (let n = 2; ids.has(id); n++) id = `${a.id}-${n}`;
    ids.add(id);
    out.push({ ...a, id });
  }
  return out;
}

export function labelCounts(assertions: Assertion[], labeller?: string): Record<string, unknown> {
  const proposed = assertions.filter((a) => a.status === 'proposed').length;
  return {
    proposed,
    confirmed: assertions.length - proposed,
    by: ['cue-lexicon', ...(labeller ? [labeller] : [])],
  };
}

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();
