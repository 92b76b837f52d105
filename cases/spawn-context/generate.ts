import type { Assertion } from '../../harness/core/index.ts';
import { scenarios, type Scenario } from './scenarios.ts';
import { moreScenarios } from './scenarios-2.ts';
import { SessionBuilder } from '../lib/session.ts';
import { Random } from '../lib/random.ts';
import { orchestrationCalls, spawnWorld } from './world.ts';

const all: Scenario[] = [...scenarios, ...moreScenarios];

type Layout = 'single-turn' | 'three-turn' | 'compacted';

/**
 * The spawn-context generator (seed: child-agent-context-selection): a parent mid-turn on an
 * orchestration request spawns a child for one narrow piece. Layouts vary where the request sits:
 * in the active turn, two turns back, or inside a compaction summary.
 */
export function generate({ seed, count }: { seed: number; count: number }): unknown[] {
  return Array.from({ length: count }, (_, i) => spawnCase(seed, i));
}

function spawnCase(seed: number, index: number) {
  const sc = all[index % all.length]!;
  const variant = Math.floor(index / all.length) % 2;
  const child = sc.children[variant % sc.children.length]!;
  const layout: Layout = variant === 1 ? 'compacted' : index % 2 === 0 ? 'single-turn' : 'three-turn';
  const r = new Random('spawn', seed, index);
  const { transcript, spawnCallId } = parentSession(sc, child.name, child.task, layout, r, index);
  const assertions: Assertion[] = sc.notes.map((n) => ({ ...n }));
  return {
    id: `spawn-${String(index + 1).padStart(2, '0')}-${sc.id}-${child.name}`,
    title: `${sc.repo}: spawn the ${child.name} child (${layout})`,
    task: child.task,
    source: transcript,
    spawnCallId,
    receiverAgent: child.name,
    assertions,
    reference: {
      facts: sc.facts.filter((f) => child.facts.includes(f.id)),
      caveats: sc.notes.filter((n) => n.kind !== 'confident').map((n) => n.id),
      orchestration: {
        request: sc.orchestration.request,
        cues: sc.orchestration.cues,
        calls: orchestrationCalls,
      },
      expectedWords: 120,
    },
    world: spawnWorld(sc),
    tags: [sc.id, layout, ...(layout === 'compacted' ? ['compaction'] : [])],
  };
}

function parentSession(
  sc: Scenario,
  childName: string,
  task: string,
  layout: Layout,
  r: Random,
  index: number,
) {
  const s = new SessionBuilder('lead', 'parent', `toolu_sp${index}`, 'large');
  const plan = `Plan: ${sc.children.length + 1} children in parallel (${[...sc.children.map((c) => c.name), 'one more'].join(', ')}), each on its own branch; I will do the merge and the test run myself once they report.`;
  const notes = sc.notes.map((n) => `- ${n.statement}`).join('\n');
  if (layout === 'compacted') {
    s.compacted(sc.compactionSummary);
    s.user(
      r.pick([
        `Go ahead, start with the ${childName} child.`,
        `OK — kick off ${childName} first, I'll watch.`,
      ]),
    );
    for (const g of sc.groundwork) s.act(g.text, ...g.calls);
  } else {
    s.user(sc.orchestration.userText);
    const [first, ...rest] = sc.groundwork;
    s.act(`${plan} First some groundwork. ${first!.text}`, ...first!.calls);
    if (layout === 'three-turn') {
      s.say('Groundwork so far is above. Shall I start spawning?');
      s.user(
        'Before you spawn anything: check how the tests are run, so the children use the right commands.',
      );
      if (rest.length) for (const g of rest) s.act(g.text, ...g.calls);
      else
        s.act('Checking the test setup.', {
          name: 'run',
          input: { command: 'git status --short && git branch --show-current' },
          result: 'main',
        });
      s.say('Done. Ready when you are.');
      s.user(`Yes, go — ${childName} first.`);
    } else {
      for (const g of rest) s.act(g.text, ...g.calls);
    }
  }
  s.say(`What the children need to know:\n${notes}`);
  const [call] = s.pending(`Spawning ${childName}.`, {
    name: 'spawn_agent',
    input: { task_name: childName, message: task },
  });
  return { transcript: s.build(`spawn-${sc.id}-${index}`), spawnCallId: call!.id };
}
