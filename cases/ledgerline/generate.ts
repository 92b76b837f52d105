import { createWorld, groundTruth } from './world.ts';
import { repoFiles } from './repo.ts';
import { findings } from './labels.ts';
import { childSession, tableRows, TABLE_COLUMNS } from './child.ts';
import { parentSession, researchBrief } from './parent.ts';
import { placementFor, repoNotes } from './placement.ts';

/**
 * The ledgerline suite's generator (seed: ledgerline, DESIGN §2): one seeded world per case, the
 * child's research over it, the parent's escalation history, labels and a reference from ground truth.
 */
export function generate({ seed, count }: { seed: number; count: number }): unknown[] {
  return Array.from({ length: count }, (_, i) => ledgerlineCase(seed, i));
}

export function ledgerlineCase(seed: number, index: number) {
  const w = createWorld(seed, index);
  const truth = groundTruth(w);
  const place = placementFor(w);
  const files = repoFiles(w, seed, repoNotes(w, place));
  const f = findings(w, truth, files, place);
  const brief = researchBrief(w);
  const parent = parentSession(w, seed);
  return {
    id: `ledgerline-${String(index + 1).padStart(2, '0')}`,
    title: `${w.provider.name} retires 2023-10: ${truth.affected.length} of ${w.merchants.length} merchants affected (fallback in ${w.fallbackAdapter})`,
    task: `The research child has returned. Write the escalation answer for merchant success: which merchants break when ${w.provider.name} retires API version 2023-10 on ${w.retirementDate}, why, with a source for each, and what is still uncertain.`,
    receiverHistory: parent.transcript,
    source: childSession(w, files, f, brief, seed),
    receiverAgent: 'escalation-agent',
    assertions: f.all,
    reference: {
      facts: f.facts,
      caveats: f.all.filter((a) => a.kind !== 'confident').map((a) => a.id),
      notSearched: f.coverage.notSearched,
    },
    world: {
      files,
      tables: { merchant_config: { columns: TABLE_COLUMNS, rows: tableRows(w) } },
    },
    tags: [
      `adapters:${w.adapters.length}`,
      `fallback:${w.fallbackAdapter}`,
      w.sandbox.readable ? `sandbox:readable:${w.sandbox.pin}` : 'sandbox:unknowable',
      ...(w.gatewayRegion ? ['edge-proxy'] : []),
      ...(w.batchJob ? ['batch-job'] : []),
      `assumption:${w.assumption}`,
      `hedge:${place.hedgeTopic}@${place.hedge}`,
      `assumption@${place.assumption}`,
      `unresolved@${place.unresolved}`,
      `aside@${place.aside}`,
    ],
  };
}
