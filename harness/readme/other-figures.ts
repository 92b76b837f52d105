import type { ArmSummary, Comparison, Summary } from '../../reports/summary/types.ts';
import { armOf, checked, failed, int, num, ratio, signed, suiteOf, verdict, vs } from './format.ts';
import type { ReadmeFigure } from './format.ts';

/** The rows of the README's table for the suites other than ledgerline. */
export function others(s: Summary): ReadmeFigure[] {
  return [...multiChild(s), ...milkEsc(s), ...ownedSession(s), ...spawnContext(s)];
}

function multiChild(s: Summary): ReadmeFigure[] {
  const mc = suiteOf(s, 'multi-child');
  const [cat, merged, finals] = ['transcripts-concatenated', 'contracts-merged', 'final-messages'].map((a) =>
    armOf(mc, a),
  ) as [ArmSummary, ArmSummary, ArmSummary];
  const surfaced = (a: ArmSummary) =>
    ratio(
      checked(a, 'contradictions_surfaced') - failed(a, 'contradictions_surfaced'),
      checked(a, 'contradictions_surfaced'),
    );
  const mcMerged = vs(merged, 'caveat_carrying');
  const mcFinals = vs(finals, 'caveat_carrying');
  return [
    {
      anchor: '| 4 transcripts ≈ 112k tokens',
      column: 3,
      template:
        '{cat} vs {merged} window (final messages only: {finals}); contradictions surfaced in {catS} vs {mergedS} cells (final messages: {finalsS}); caveat carrying merged {dm}, final messages {df} ({cases} cases: {vm})',
      values: {
        cat: int(cat.tokens.windowAfter),
        merged: int(merged.tokens.windowAfter),
        finals: int(finals.tokens.windowAfter),
        catS: surfaced(cat),
        mergedS: surfaced(merged),
        finalsS: surfaced(finals),
        dm: signed(mcMerged.diff!),
        df: signed(mcFinals.diff!),
        cases: String(mcMerged.clusters),
        vm:
          verdict(mcMerged) === verdict(mcFinals)
            ? verdict(mcMerged)
            : `${verdict(mcMerged)} / ${verdict(mcFinals)}`,
      },
    },
  ];
}

function milkEsc(s: Summary): ReadmeFigure[] {
  const milk = suiteOf(s, 'milk');
  const brick = armOf(milk, 'milk-esc-brick');
  const parity = armOf(milk, 'milk-esc-parity');
  const v = (c: Comparison) => (verdict(c) === 'noise' ? 'noise' : `_${verdict(c)}_`);
  return [
    {
      anchor: '| milk-esc lost to milk-auto',
      column: 3,
      template:
        'brick: verification {bv} [{bvlo}, {bvhi}] ({bvv}), restraint {br} [{brlo}, {brhi}] ({brv}); parity: {pv} ({pvv}), {pr} ({prv})',
      values: {
        bv: signed(vs(brick, 'verification_evidence').diff!),
        bvlo: num(vs(brick, 'verification_evidence').ci![0]),
        bvhi: num(vs(brick, 'verification_evidence').ci![1]),
        bvv: v(vs(brick, 'verification_evidence')),
        br: signed(vs(brick, 'restraint').diff!),
        brlo: num(vs(brick, 'restraint').ci![0]),
        brhi: num(vs(brick, 'restraint').ci![1]),
        brv: v(vs(brick, 'restraint')),
        pv: signed(vs(parity, 'verification_evidence').diff!),
        pvv: v(vs(parity, 'verification_evidence')),
        pr: signed(vs(parity, 'restraint').diff!),
        prv: v(vs(parity, 'restraint')),
      },
    },
  ];
}

function ownedSession(s: Summary): ReadmeFigure[] {
  const esc = suiteOf(s, 'esc-owned-parity');
  const [pro, handoff, owner] = ['milk-pro', 'esc-handoff', 'esc-owner'].map((a) => armOf(esc, a)) as [
    ArmSummary,
    ArmSummary,
    ArmSummary,
  ];
  return [
    {
      anchor: '| owned session: proportional',
      column: 3,
      template:
        'owner {owner} = pro {pro}; hand-off framing {handoff} with the recap in {recap} cells, owner {ownerRecap}',
      values: {
        owner: owner.scores.proportional!.mean!.toFixed(2),
        pro: pro.scores.proportional!.mean!.toFixed(2),
        handoff: handoff.scores.proportional!.mean!.toFixed(2),
        recap: ratio(failed(handoff, 'no_recap_signature'), checked(handoff, 'no_recap_signature')),
        ownerRecap: ratio(failed(owner, 'no_recap_signature'), checked(owner, 'no_recap_signature')),
      },
    },
  ];
}

function spawnContext(s: Summary): ReadmeFigure[] {
  const spawn = suiteOf(s, 'spawn-context');
  const second = (a: string) =>
    ratio(failed(armOf(spawn, a), 'no_second_assignment'), checked(armOf(spawn, a), 'no_second_assignment'));
  return [
    {
      anchor: '| a full copy makes the child run',
      column: 3,
      template: 'second assignment: all {all}, recent {recent}, isolated {isolated}, summary {summary}',
      values: {
        all: second('spawn-all'),
        recent: second('spawn-recent'),
        isolated: second('spawn-isolated'),
        summary: second('spawn-summary'),
      },
    },
  ];
}
