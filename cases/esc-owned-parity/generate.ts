import type { Assertion } from '../../harness/core/index.ts';
import { designs, type Design } from './designs.ts';
import { moreDesigns } from './designs-2.ts';
import { SessionBuilder } from '../lib/session.ts';
import { Random } from '../lib/random.ts';
import { numbered } from '../lib/text.ts';
import { gotest, pytest, vitest, type Runner } from '../milk/runners.ts';
import { ownedWorld, testFileOf } from './world.ts';

const all = [...designs, ...moreDesigns];
const runners: Record<string, Runner> = {
  ratelimit: vitest,
  flags: pytest,
  'audit-export': gotest,
  'webhook-retries': vitest,
};
const HEDGE_Q = ['could not determine', 'could not confirm', 'unclear', 'not verified', 'unverified'];
const ASSUME_Q = ['assuming', 'assumption', 'assumed'];

/**
 * The esc-owned-parity generator (seed: ADR 0093 addendum): sessions pinned to escalation from the
 * first turn — every assistant turn is the escalation agent's own work. A hard task (implement a
 * design) is finished, a small chore follows, then a new, small request: the case's task. A recap
 * of the finished work ("What was implemented (matching the design)") would be out of place.
 */
export function generate({ seed, count }: { seed: number; count: number }): unknown[] {
  return Array.from({ length: count }, (_, i) => ownedCase(seed, i));
}

function ownedCase(seed: number, index: number) {
  const d = all[index % all.length]!;
  const followUp = d.followUps[Math.floor(index / all.length) % d.followUps.length]!;
  const r = new Random('esc-owned', seed, index);
  const { transcript, assertions, outputs } = session(d, runners[d.id]!, r, index);
  return {
    id: `owned-${String(index + 1).padStart(2, '0')}-${d.id}`,
    title: `${d.repo}: after implementing ${d.docPath}, a small question`,
    task: followUp.request,
    source: transcript,
    receiverAgent: 'escalation',
    sessionShape: 'owned',
    assertions,
    reference: { facts: followUp.facts, caveats: [], expectedWords: followUp.expectedWords },
    world: ownedWorld(d, runners[d.id]!, outputs),
    tags: [d.id, 'owned'],
  };
}

function session(d: Design, runner: Runner, r: Random, index: number) {
  const s = new SessionBuilder('escalation', 'escalation', `toolu_eo${index}`, 'large');
  const file = runner === gotest ? d.testPath : d.testPath;
  const red = runner.run(r, file, r.shuffle(d.tests), d.failingTest);
  const green = runner.run(r, file, r.shuffle(d.tests), null);
  implementTurn(s, d, runner, red.output, green.output);
  const { confident, hedge, assumption } = reportAssertions(d);
  s.say(
    [
      'Done — implemented to the design, all tests green.',
      '',
      ...confident.map((a) => `- ${a.statement}`),
      '',
      'Open points:',
      `- ${hedge.statement}`,
      `- ${assumption.statement}`,
    ].join('\n'),
  );
  s.user(
    r.pick([
      'Great, thanks. Add a CHANGELOG entry for it too.',
      'Thanks! Please add it to the CHANGELOG under Unreleased.',
    ]),
  );
  s.act(undefined, {
    name: 'edit_file',
    input: {
      path: 'CHANGELOG.md',
      old_string: '## Unreleased\n',
      new_string: `## Unreleased\n\n- ${d.task.split('.')[0]}.\n`,
    },
    result: 'Applied edit to CHANGELOG.md.',
  });
  s.say('Added under Unreleased.');
  return {
    transcript: s.build(`owned-${d.id}`, { repo: d.repo }),
    assertions: [...confident, hedge, assumption],
    outputs: { red: red.output, green: green.output },
  };
}

/** The first turn: read the design, write the module and its tests, fix the one failure. */
function implementTurn(s: SessionBuilder, d: Design, runner: Runner, red: string, green: string): void {
  s.user(`${d.repo}: ${d.task}`);
  s.act(`Reading the design first.`, {
    name: 'read_file',
    input: { path: d.docPath },
    result: numbered(d.doc),
  });
  s.act('Checking what already exists around this area.', {
    name: 'search_code',
    input: {
      pattern: d.modulePath
        .split('/')
        .pop()!
        .replace(/\.\w+$/, ''),
    },
    result: `No matches found for "${d.modulePath
      .split('/')
      .pop()!
      .replace(/\.\w+$/, '')}" outside docs/.`,
  });
  s.act(`Writing ${d.modulePath} to the design.`, {
    name: 'write_file',
    input: { path: d.modulePath, content: d.module },
    result: `File created: ${d.modulePath} (${d.module.split('\n').length} lines)`,
  });
  s.act('Now the tests, one per rule in the design.', {
    name: 'write_file',
    input: {
      path: testFileOf(d),
      content: d.tests.map((t) => `// ${t}`).join('\n'),
    },
    result: `File created (${d.tests.length} tests).`,
  });
  s.act('Running them.', {
    name: 'run',
    input: { command: runner.command },
    result: red,
    isError: true,
  });
  s.act(`One failure: ${d.fix.why}. Fixing.`, {
    name: 'edit_file',
    input: { path: d.modulePath, old_string: d.fix.old, new_string: d.fix.new },
    result: `Applied edit to ${d.modulePath}.`,
  });
  s.act('Re-running.', { name: 'run', input: { command: runner.command }, result: green });
}

/** The first report's claims: the design's confident findings, a hedge and an assumption. */
function reportAssertions(d: Design) {
  const confident: Assertion[] = d.report.confident.map((c) => ({
    id: c.id,
    kind: 'confident',
    statement: c.statement,
    claim: c.statement,
    cues: c.cues,
    provenance: c.provenance,
    // The report closes the first turn; the CHANGELOG edit follows, so it is said between tool calls.
    location: 'mid_transcript',
  }));
  const hedge: Assertion = {
    id: 'hedge',
    kind: 'hedged',
    statement: d.report.hedge.statement,
    claim: d.report.hedge.claim,
    cues: d.report.hedge.cues,
    qualifierCues: HEDGE_Q,
    location: 'mid_transcript',
  };
  const assumption: Assertion = {
    id: 'assumption',
    kind: 'assumption',
    statement: d.report.assumption.statement,
    claim: d.report.assumption.claim,
    cues: d.report.assumption.cues,
    qualifierCues: ASSUME_Q,
    location: 'mid_transcript',
  };
  return { confident, hedge, assumption };
}
