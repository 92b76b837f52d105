import type { Strategy } from '../harness/types.ts';
import { UnknownNameError } from '../harness/errors.ts';
import { inline } from './inline.ts';
import { fullTranscript } from './full-transcript.ts';
import { brickOnly } from './brick-only.ts';

/** Every registered strategy, by name. Config may add inline strategy objects on top. */
export const strategies = {
  inline,
  'full-transcript': fullTranscript,
  'brick-only': brickOnly,
} satisfies Record<string, Strategy<any>>;

export type StrategyName = keyof typeof strategies;

export function getStrategy(name: string, extra: Record<string, Strategy<any>> = {}, where?: string): Strategy<any> {
  const all: Record<string, Strategy<any>> = { ...strategies, ...extra };
  const s = all[name];
  if (!s) throw new UnknownNameError('strategy', name, Object.keys(all), where);
  return s;
}
