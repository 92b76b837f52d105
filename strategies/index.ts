import type { Strategy } from '../harness/core/index.ts';
import { UnknownNameError } from '../harness/core/errors.ts';
import { inline } from './inline.ts';
import { fullTranscript } from './full-transcript.ts';
import { finalMessage } from './final-message.ts';
import { brickOnly } from './brick-only.ts';
import { summary } from './summary.ts';
import { structuredContract } from './structured-contract.ts';
import { parityNarration } from './parity-narration.ts';
import { spawnIsolated } from './spawn-isolated.ts';
import { spawnAll } from './spawn-all.ts';
import { spawnRecent } from './spawn-recent.ts';
import { spawnSummary } from './spawn-summary.ts';

/** Every registered strategy, by name. Config may add inline strategy objects on top. */
export const strategies = {
  inline,
  'full-transcript': fullTranscript,
  'final-message': finalMessage,
  summary,
  'structured-contract': structuredContract,
  'brick-only': brickOnly,
  'parity-narration': parityNarration,
  'spawn-isolated': spawnIsolated,
  'spawn-all': spawnAll,
  'spawn-recent': spawnRecent,
  'spawn-summary': spawnSummary,
} satisfies Record<string, Strategy<any>>;

/** The names of the registered reference strategies. */
export type StrategyName = keyof typeof strategies;

/**
 * The strategy called `name`: a config's own strategy (`extra`) or a registered one; throws an
 * UnknownNameError listing the known names (`where` names the config field).
 */
export function getStrategy(
  name: string,
  extra: Record<string, Strategy<any>> = {},
  where?: string,
): Strategy<any> {
  // Looked up per cell: no merged copy of the registry unless the name is unknown.
  const s = Object.hasOwn(extra, name)
    ? extra[name]
    : Object.hasOwn(strategies, name)
      ? (strategies as Record<string, Strategy<any>>)[name]
      : undefined;
  if (!s) throw new UnknownNameError('strategy', name, Object.keys({ ...strategies, ...extra }), where);
  return s;
}
