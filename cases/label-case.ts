import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CaseValidationError } from '../harness/core/errors.ts';
import type { Assertion, Transcript } from '../harness/core/index.ts';
import { toCase } from './load.ts';
import { modelProposals } from './model-labeller.ts';
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
  const c = await toCase(raw, file, dirname(file), {
    id: String(raw.suite ?? 'label'),
    criteria: [],
    direction: 'return',
  });
  const sources = c.sources ?? [c.source];
  const proposals = await proposalsFor(sources, { ...o, caseId: c.id });
  const kept = c.assertions.filter((a) => a.status !== 'proposed');
  const assertions = mergeProposals(kept, proposals);
  const provenance = typeof raw.provenance === 'object' && raw.provenance !== null ? raw.provenance : {};
  return {
    ...raw,
    assertions,
    provenance: { ...provenance, labels: labelCounts(assertions, o.labeller) },
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
