import { durations } from './project-durations.ts';
import { orders } from './project-orders.ts';
import { retry } from './project-retry.ts';
import { csvmerge } from './project-csvmerge.ts';
import { primarySession } from './session.ts';
import { Random } from '../lib/random.ts';
import { milkWorld } from './world.ts';

const projects = [durations, orders, retry, csvmerge];

const followUps = [
  'Before I merge this: is the fix complete, and what evidence do we have that it works? Keep it short.',
  'A reviewer asks whether this is verified end to end. What do we tell them, exactly?',
  'Write the PR description: what changed, why, and how it was verified.',
  'Can we ship this today? List what is verified and what is not.',
];

/**
 * The milk suite's generator (seed: ADR 0093): a cheap primary's coding sessions — a bug fixed with
 * tests run and their long output, then a follow-up turn — escalated to a stronger model with a
 * request that needs restraint and the tool evidence. One case per (project, bug).
 */
export function generate({ seed, count }: { seed: number; count: number }): unknown[] {
  return Array.from({ length: count }, (_, i) => milkCase(seed, i));
}

function milkCase(seed: number, index: number) {
  const p = projects[index % projects.length]!;
  const bug = p.bugs[Math.floor(index / projects.length) % p.bugs.length]!;
  const r = new Random('milk-case', seed, index);
  const session = primarySession(p, bug, seed, index);
  return {
    id: `milk-${String(index + 1).padStart(2, '0')}-${p.id}-${bug.id}`,
    title: `${p.language} · ${p.repo}: ${bug.title}`,
    task: r.pick(followUps),
    source: session.transcript,
    receiverAgent: 'escalation',
    sessionShape: 'handed-off',
    assertions: session.assertions,
    reference: {
      facts: session.facts,
      caveats: session.assertions.filter((a) => a.kind !== 'confident').map((a) => a.id),
      evidence: session.evidence,
      expectedWords: 150,
    },
    world: milkWorld(p, bug, session, seed, index),
    tags: [p.language.toLowerCase(), p.id, bug.id],
  };
}
