import type { Case, SessionShape } from '../types/case.ts';

/**
 * How the receiving session came to be, read off the transcript (ADR 0093 addendum: ownedFromStart =
 * the primary was never active and there is no escalation brief). An escalation case is `owned`
 * when every assistant message of the source is the receiver's own (the receiving agent, or an agent
 * whose role is escalation) — so the session was the receiver's from its first turn — and no user
 * message is a brief addressed by another agent. Anything else — a primary that worked first, a
 * brief, a child's research returned to its parent, a spawned child — is `handed-off`. The case's
 * `sessionShape` label is only checked against this (cases/check-case.ts), never used instead of it.
 */
export function sessionShapeOf(c: Case): SessionShape {
  return ownershipOf(c).shape;
}

/** The shape and, for a hand-off, what in the transcript shows it (validation messages quote it). */
export function ownershipOf(c: Case): { shape: SessionShape; why: string } {
  if (c.direction !== 'escalation')
    return { shape: 'handed-off', why: `a ${c.direction} case hands another agent's work over` };
  const t = c.source;
  const names = Object.keys(t.agents);
  const only = names.length === 1 ? names[0] : undefined;
  const receiver = receiverAgentOf(c);
  const own = (name: string | undefined) =>
    name !== undefined && (name === receiver || t.agents[name]?.role === 'escalation');
  const authors = t.messages.filter((m) => m.role === 'assistant').map((m) => m.agent ?? only);
  if (authors.length === 0) return { shape: 'handed-off', why: 'the receiver has no turn of its own' };
  const other = authors.find((a) => !own(a));
  if (other !== undefined || authors.includes(undefined))
    return {
      shape: 'handed-off',
      why: `agent "${other ?? '(unnamed)'}" worked in the session before the receiver`,
    };
  const brief = t.messages.find(
    (m) => m.role === 'user' && m.agent !== undefined && !own(m.agent) && m.agent in t.agents,
  );
  if (brief)
    return { shape: 'handed-off', why: `the session opens with a brief from agent "${brief.agent}"` };
  return { shape: 'owned', why: "every turn is the receiver's own" };
}

/** The receiving agent's name: the case says, else the session's escalation agent. */
export function receiverAgentOf(c: Case): string | undefined {
  if (c.receiverAgent) return c.receiverAgent;
  return Object.entries(c.source.agents).find(([, info]) => info.role === 'escalation')?.[0];
}
