import { defineCriterion } from './define.ts';

export const ownership = defineCriterion({
  id: 'ownership',
  title: 'Ownership',
  question:
    'Does the agent speak as the owner of the work — in a session that was its own from the first turn, no hand-off narrative; after a real hand-off, continuing the work rather than reviewing or re-presenting it as received material?',
  anchors: {
    1: "Treats its own earlier work as someone else's hand-off, or recaps it as received material, instead of continuing it.",
    3: 'Mostly owns the work; a stray hand-off phrase or a partial recap of earlier turns.',
    5: 'Speaks as the owner throughout: continues the work and answers the request, with hand-off language only where a hand-off really happened.',
  },
  reference: ['sessionShape'],
  source: 'adr-0093 addendum: framing keyed to session shape, "This conversation is yours from the start"',
});
