import fc from 'fast-check';
import type { Transcript } from '../../harness/core/index.ts';
import { buildTranscript, type CallSpec, type StepSpec, type TurnSpec } from '../../harness/kit/generate.ts';

/**
 * The property tests' generated sessions: the specs drawn by fast-check (shrinkable), built by the
 * kit's generator (harness/kit/generate.ts, which also draws them from a seed for checkStrategy).
 */
export {
  buildTranscript,
  filler,
  primaryAgent,
  receiverAgent,
  type CallSpec,
  type StepSpec,
  type TurnSpec,
} from '../../harness/kit/generate.ts';

const callArb: fc.Arbitrary<CallSpec> = fc.record({
  size: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 400 }), weight: 6 },
    { arbitrary: fc.integer({ min: 1000, max: 6000 }), weight: 3 },
    { arbitrary: fc.integer({ min: 20_000, max: 60_000 }), weight: 1 },
  ),
  error: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  orphan: fc.integer({ min: 0, max: 30 }).map((n) => n === 0),
  tool: fc.integer({ min: 0, max: 4 }),
});

const stepArb = (receiverSteps: boolean): fc.Arbitrary<StepSpec> =>
  fc.record({
    text: fc.boolean(),
    calls: fc.array(callArb, { minLength: 0, maxLength: 4 }),
    byReceiver: receiverSteps ? fc.integer({ min: 0, max: 4 }).map((n) => n === 0) : fc.constant(false),
    reversed: fc.boolean(),
  });

export const turnsArb = (
  opts: { maxTurns?: number; receiverSteps?: boolean; compaction?: boolean } = {},
): fc.Arbitrary<TurnSpec[]> =>
  fc.array(
    fc.record({
      steps: fc.array(stepArb(opts.receiverSteps ?? false), { minLength: 1, maxLength: 4 }),
      finalText: fc.boolean(),
      compactBefore: opts.compaction
        ? fc.integer({ min: 0, max: 5 }).map((n) => n === 0)
        : fc.constant(false),
    }),
    { minLength: 1, maxLength: opts.maxTurns ?? 24 },
  );

export const transcriptArb = (
  opts: { maxTurns?: number; receiverSteps?: boolean; compaction?: boolean } = {},
): fc.Arbitrary<Transcript> => turnsArb(opts).map((turns) => buildTranscript(turns, opts));
