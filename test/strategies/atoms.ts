import type { Transcript } from '../../harness/core/index.ts';
import { viewOf } from '../../harness/core/transcript/view.ts';
import { formatArgs } from '../../strategies/render.ts';
import { ADR_0093, adrFates } from './adr-retention.ts';

/**
 * What ADR 0093's retention rule (./adr-retention.ts, written from the ADR, not the strategy's planner)
 * says either side must show: every text; calls and (capped) results of expanded/retained turns; and
 * what it must not: the results of manifest turns, and a retained result past its cap in full.
 */
export function expectedAtoms(t: Transcript, retainBytes: number = ADR_0093.retainBytes) {
  const fates = adrFates(t, retainBytes);
  const cap = ADR_0093.retainedResultCap;
  const texts = t.messages.filter((m) => m.text?.trim()).map((m) => m.text!);
  const shown: string[] = [];
  const hidden: string[] = [];
  for (const turn of viewOf(t).turns) {
    const fate = fates.get(turn.index);
    for (const item of turn.trail) {
      shown.push(
        fate === 'manifest'
          ? item.call.name
          : `${item.call.name}(${formatArgs(item.call.input)})`.slice(0, 80),
      );
      if (!item.result) continue;
      const content = item.result.content;
      if (fate === 'manifest') hidden.push(content.slice(0, 40));
      else if (fate === 'expanded') shown.push(content);
      else {
        shown.push(content.slice(0, cap));
        if (content.length > cap) hidden.push(content);
      }
    }
  }
  return { texts, shown, hidden, fates };
}
