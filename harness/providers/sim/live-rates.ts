/**
 * The sim's live-mode rates (docs/live.md). Each is *set* — a documented number with its source —
 * and everything else a live sim run reports *emerges* from the tool policy acting on the world
 * (how many calls, which places, whether the budget runs out, what the report can state).
 */
export interface SimLiveRates {
  /**
   * act: probability of following a lead that a result revealed (tiers 2–3 in act-leads.ts); leads the
   * brief names are always followed. Chosen, not from a seed: below 1 so reps of a case differ in how
   * far the child digs, high enough that a lead is usually followed.
   */
  followRevealedLead: number;
  /**
   * act: told from its first turn that it must fill coverage.not_searched, the probability that it
   * takes one more look before reporting. Set from the ledgerline seed: median tool calls 5.4 → 6.1
   * once the contract landed ("one more search so that not_searched would be shorter"), so 0.7 calls.
   */
  extraLookWithCoverage: number;
  /** act: read_file leads of one tier issued together in one message (parallel calls). Chosen. */
  parallelReads: number;
  /**
   * answer: probability that a receiver given fetch_transcript_span calls it once before answering.
   * Set from the ledgerline seed: "Ledgerline's parents called it in about 4% of runs".
   */
  fetchSpanWhenOffered: number;
  /**
   * act: probability that the source notes a claim in the message that goes with its next calls, as
   * soon as its results ground it ("Noting as I go: …"), keyed by the session and the claim. Chosen: no
   * seed publishes how often an agent remarks on a finding mid-research; the ledgerline seed only
   * says some caveats were "said once, mid-research".
   */
  noteWhenFound: number;
  /**
   * act: probability that a claim it noted mid-research is stated again in its final report (keyed by
   * the session and the claim). Chosen, like noteWhenFound: below 1 so that some claims live only
   * mid-transcript — where the claims' measured locations then put them (issue 26).
   */
  restateNoted: number;
}

export const defaultLiveRates: SimLiveRates = {
  followRevealedLead: 0.85,
  extraLookWithCoverage: 0.7,
  parallelReads: 2,
  fetchSpanWhenOffered: 0.04,
  noteWhenFound: 0.5,
  restateNoted: 0.7,
};

/** What a live sim report says about its numbers: which are set from a seed, which are chosen. */
export const liveRateSources: Record<keyof SimLiveRates, { set: 'seed' | 'chosen'; source: string }> = {
  extraLookWithCoverage: {
    set: 'seed',
    source: 'ledgerline: median child tool calls 5.4 → 6.1 with the contract (+0.7 calls)',
  },
  fetchSpanWhenOffered: {
    set: 'seed',
    source: 'ledgerline: parents called fetch_transcript_span in ≈4% of runs',
  },
  followRevealedLead: { set: 'chosen', source: 'documented default; no seed publishes it' },
  parallelReads: { set: 'chosen', source: 'the seed child read two adapter files together' },
  noteWhenFound: {
    set: 'chosen',
    source: 'no seed publishes it; ledgerline mentions caveats said once, mid-research',
  },
  restateNoted: {
    set: 'chosen',
    source: 'no seed publishes it; below 1 so some claims are said only mid-transcript',
  },
};
