import type { Transcript } from '../../harness/types.ts';
import { viewOf } from '../../harness/transcript/view.ts';
import { formatArgs } from '../../strategies/render.ts';
import { adr0093Retention, planTrails } from '../../strategies/trails.ts';

/** What the retention plan says either side must show: every text; calls and (capped) results of expanded/retained turns. */
export function expectedAtoms(t: Transcript, policy = adr0093Retention) {
  const plan = planTrails(t, policy);
  const texts = t.messages.filter((m) => m.text?.trim()).map((m) => m.text!);
  const shown: string[] = [];
  const hidden: string[] = [];
  for (const turn of viewOf(t).turns) {
    const fate = plan.fates.get(turn.index);
    for (const item of turn.trail) {
      shown.push(
        fate === 'manifest'
          ? item.call.name
          : `${item.call.name}(${formatArgs(item.call.input)})`.slice(0, 80),
      );
      if (!item.result) continue;
      if (fate === 'manifest') hidden.push(item.result.content.slice(0, 40));
      else
        shown.push(
          fate === 'expanded' ? item.result.content : item.result.content.slice(0, policy.retainedResultCap),
        );
    }
  }
  return { texts, shown, hidden, plan };
}
