/**
 * System framings of the receiving agent. ADR 0093 D replaced the reviewer framing with continuity
 * framing after a real hand-off; its addendum adds owner framing for sessions that were the
 * receiver's from the first turn. The reviewer framing stays only as an ablation param.
 */
export const framings = {
  /** ADR 0093 addendum: the session was the receiver's from its first turn. */
  owner:
    'This conversation is yours from the start — every turn in it is your own work, including the tool activity. ' +
    'Continue the work and answer the latest request directly; do not recap unless asked.',
  /** ADR 0093 D: after a real hand-off. */
  continuity:
    'You have the complete conversation including tool activity; continue as the owner of this work and ' +
    "don't recap unless asked.",
  /** ADR 0029's legacy reviewer priming, kept for ablation. */
  handoff:
    'Escalation brief from primary agent: the primary agent has handed off this task to you. ' +
    'Expect mid-conversation hand-offs. Review what the primary agent did and take over.',
  /** A parent receiving a child's research. */
  parent:
    'You are the parent agent. A research child worked on part of your task; use what it returned to answer.',
  /** A spawned child. */
  child: 'You are a child agent spawned for one task. Do the task you are given.',
} as const;

/** The names of the system framings in `framings`. */
export type FramingName = keyof typeof framings;
