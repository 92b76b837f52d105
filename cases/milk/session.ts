import type {
  Assertion,
  ClaimLocation,
  EvidenceItem,
  ReferenceFact,
  Transcript,
} from '../../harness/core/index.ts';
import type { Bug, Project } from './project.ts';
import { SessionBuilder } from '../lib/session.ts';
import { Random } from '../lib/random.ts';
import { lineOf, numbered } from '../lib/text.ts';

export interface MilkSession {
  transcript: Transcript;
  assertions: Assertion[];
  facts: ReferenceFact[];
  evidence: EvidenceItem[];
  /** The source file as the primary first read it (the world's copy of it, live mode). */
  before: string;
  /** The suite's recorded outputs: failing test added, after the fix, after the regression test. */
  outputs: { red: string; green: string; final: string };
}

import {
  ASSUME_Q,
  fileNotes,
  HEDGE_Q,
  lintNotes,
  milkPlacement,
  openQuestion,
  withComments,
  type MilkPlacement,
} from './spread.ts';

/** The file as it stands before the fix: the bug's function buggy, the project's other functions fixed. */
export function sourceFile(p: Project, bug: Bug, fixed: boolean): string {
  const fns = new Map<string, string>();
  for (const b of p.bugs) fns.set(b.fn, b.fixed);
  fns.set(bug.fn, fixed ? bug.fixed : bug.buggy);
  return [p.header, ...fns.values()].join(p.id === 'durations' ? '\n\n' : '\n');
}

/**
 * A primary's coding session: write the failing test from the issue, read the code, fix it, run the
 * suite (long output, decisive summary last), then a follow-up turn adding a regression test and
 * running the suite and the linter again. Its first report mixes findings, a hedge, an assumption and
 * an open question; its last message restates some of them (spread.ts decides which), and a few more
 * claims are only in the file it read or in the linter's output.
 */
export function primarySession(p: Project, bug: Bug, seed: number, index: number): MilkSession {
  const r = new Random('milk', seed, index);
  const s = new SessionBuilder('primary', 'primary', `call_m${index}`, 'small');
  const place = milkPlacement(index);
  const inFile = fileNotes(place);
  const inLint = lintNotes(p, bug, place);
  const before = withComments(p.language, inFile, sourceFile(p, bug, false));
  const fnLine = lineOf(before, ` ${bug.fn}`);
  const tests = r.shuffle(p.tests);
  const red = p.runner.run(r, p.testPath, [...tests, bug.failingTest], {
    name: bug.failingTest,
    detail: bug.failure,
  });
  const green = p.runner.run(r, p.testPath, [...tests, bug.failingTest], null);
  const final = p.runner.run(r, p.testPath, [...tests, bug.failingTest, bug.regression.name], null);

  fixTurn(s, p, bug, before, red.output, green.output);
  const { cause, fix, hedge, assumption, open } = reportClaims(p, bug, fnLine, place);
  s.say(
    [
      `Fixed. Summary:`,
      '',
      `- ${cause.statement}`,
      `- ${fix.statement}`,
      `- Added ${bug.failingTest}, which failed before the change and passes now; the unit suite is green.`,
      '',
      'Caveats:',
      `- ${hedge.statement}`,
      `- ${assumption.statement}`,
      `- ${open.statement}`,
    ].join('\n'),
  );

  const claims = [cause, fix, hedge, assumption, open];
  regressionTurn(s, r, p, bug, final.output, inLint, claims);

  return {
    transcript: s.build(`milk-${p.id}-${bug.id}`, { project: p.repo, language: p.language }),
    assertions: [cause, fix, hedge, assumption, open, ...inFile, ...inLint],
    facts: milkFacts(bug),
    evidence: milkEvidence(p, red, green, final),
    before,
    outputs: { red: red.output, green: green.output, final: final.output },
  };
}

/** The first turn: read the code, write the failing test, see it fail, fix, see the suite pass. */
function fixTurn(s: SessionBuilder, p: Project, bug: Bug, before: string, red: string, green: string): void {
  s.user(`${p.repo}: ${bug.title}\n\n${bug.issue}\n\nPlease fix it and make sure the tests cover it.`);
  s.act(`I'll read ${p.srcPath} first to find where ${bug.fn} goes wrong.`, {
    name: 'read_file',
    input: { path: p.srcPath },
    result: numbered(before),
  });
  s.act(`Before changing anything, I'll add a failing test (${bug.failingTest}) that reproduces the issue.`, {
    name: 'edit_file',
    input: { path: testFileOf(p), append: testFor(p, bug.failingTest) },
    result: `Appended ${testFor(p, bug.failingTest).split('\n').length} lines to ${testFileOf(p)}.`,
  });
  s.act('Running the suite to confirm the new test fails for the reported reason.', {
    name: 'run',
    input: { command: p.runner.command },
    result: red,
    isError: true,
  });
  s.act(`The new test fails as the issue describes. Fixing ${bug.fn}.`, {
    name: 'edit_file',
    input: { path: p.srcPath, old_string: bug.buggy, new_string: bug.fixed },
    result: `Applied edit to ${p.srcPath} (${bug.buggy.split('\n').length} lines replaced with ${bug.fixed.split('\n').length}).`,
  });
  s.act('Re-running the full unit suite.', {
    name: 'run',
    input: { command: p.runner.command },
    result: green,
  });
}

/** The follow-up turn: a regression test, the suite and the linter, and a recap restating some claims. */
function regressionTurn(
  s: SessionBuilder,
  r: Random,
  p: Project,
  bug: Bug,
  final: string,
  inLint: Assertion[],
  claims: Assertion[],
): void {
  s.user(
    r.pick([
      `Thanks. Please also add a regression test for ${bug.regression.name.replace(/_/g, ' ')} and run the linter.`,
      `Good. Add one more regression test (${bug.regression.name}) and run lint before I look at it.`,
    ]),
  );
  s.act(`Adding ${bug.regression.name}.`, {
    name: 'edit_file',
    input: { path: testFileOf(p), append: bug.regression.code },
    result: `Appended ${bug.regression.code.split('\n').length} lines to ${testFileOf(p)}.`,
  });
  s.act(
    'Running the suite again, then the linter.',
    { name: 'run', input: { command: p.runner.command }, result: final },
    {
      name: 'run',
      input: { command: lintCommand(p) },
      result: [lintOutput(p, r), ...inLint.map((a) => a.statement)].join('\n'),
    },
  );
  const restated = claims.filter((a) => a.location === 'final_message');
  s.say(
    [
      `Added ${bug.regression.name}; the suite is green and the linter is clean. The change is confined to ${bug.fn} in ${p.srcPath}.`,
      '',
      'To recap what matters for review:',
      ...restated.map((a) => `- ${a.statement}`),
    ].join('\n'),
  );
}

function milkFacts(bug: Bug): ReferenceFact[] {
  return [
    { id: 'f-cause', text: bug.cause.statement, cues: bug.cause.cues },
    { id: 'f-fix', text: bug.fix.statement, cues: bug.fix.cues },
    {
      id: 'f-regression',
      text: `regression test ${bug.regression.name} was added`,
      cues: [bug.regression.name],
    },
  ];
}

type RunResult = ReturnType<Project['runner']['run']>;

function milkEvidence(p: Project, red: RunResult, green: RunResult, final: RunResult): EvidenceItem[] {
  return [
    {
      id: 'e-final',
      text: `${p.runner.command} after the regression test: ${final.summary.replace(/=+/g, '').trim()}`,
      cues: [final.cue],
    },
    {
      id: 'e-green',
      text: `${p.runner.command} after the fix: ${green.summary.replace(/=+/g, '').trim()}`,
      cues: [green.cue],
    },
    {
      id: 'e-red',
      text: `${p.runner.command} before the fix: ${red.summary.replace(/=+/g, '').trim()}`,
      cues: [red.cue],
    },
  ];
}

/** The first report's claims, each located by whether the last message restates it (spread.ts). */
function reportClaims(p: Project, bug: Bug, fnLine: number, place: MilkPlacement) {
  const where = (restated: boolean): ClaimLocation => (restated ? 'final_message' : 'mid_transcript');
  const cause: Assertion = {
    location: where(place.restateCause),
    id: 'cause',
    kind: 'confident',
    statement: `The bug: ${bug.cause.statement} (${p.srcPath}:${fnLine}).`,
    claim: `${bug.cause.statement} (${p.srcPath}:${fnLine})`,
    cues: bug.cause.cues,
    provenance: [`${p.srcPath}:${fnLine}`],
  };
  const fix: Assertion = {
    location: where(!place.restateCause),
    id: 'fix',
    kind: 'confident',
    statement: `The fix: ${bug.fix.statement}.`,
    claim: bug.fix.statement,
    cues: bug.fix.cues,
    provenance: [p.srcPath],
  };
  const hedge: Assertion = {
    location: where(place.restateHedge),
    id: 'integration',
    kind: 'hedged',
    statement: `I could not confirm that ${p.integration.claim}: I did not run ${p.integration.what} because ${p.integration.why}.`,
    claim: p.integration.claim,
    cues: p.integration.cues,
    qualifierCues: HEDGE_Q,
  };
  const assumption: Assertion = {
    location: where(place.restateAssumption),
    id: 'assumption',
    kind: 'assumption',
    statement: bug.assumption.statement,
    claim: bug.assumption.claim,
    cues: bug.assumption.cues,
    qualifierCues: ASSUME_Q,
  };
  const open: Assertion = { ...openQuestion(bug), location: where(place.restateOpen) };
  return { cause, fix, hedge, assumption, open };
}

/** The file the primary's tests are written in. */
export function testFileOf(p: Project): string {
  return (
    {
      durations: 'tests/test_core.py',
      orders: 'src/orders.test.ts',
      retry: 'retry_test.go',
      csvmerge: 'src/lib.rs',
    }[p.id] ?? p.testPath
  );
}

function testFor(p: Project, name: string): string {
  const bug = p.bugs.find((b) => b.failingTest === name)!;
  if (p.id === 'durations') {
    const code = bug.failure.slice(
      0,
      bug.failure.findIndex((l) => l.startsWith('E')),
    );
    return code.map((l) => l.replace(/^>/, ' ').replace(/^ {4}/, '')).join('\n');
  }
  if (p.id === 'orders')
    return `it('${name.split(' > ')[1]}', async () => {\n  // reproduces: ${bug.title}\n});`;
  if (p.id === 'retry') return `func ${name}(t *testing.T) {\n\t// reproduces: ${bug.title}\n}`;
  return `#[test]\nfn ${name}() {\n    // reproduces: ${bug.title}\n}`;
}

function lintCommand(p: Project): string {
  return (
    {
      durations: 'ruff check . && mypy src',
      orders: 'npx eslint . && npx tsc --noEmit',
      retry: 'go vet ./... && staticcheck ./...',
      csvmerge: 'cargo clippy -- -D warnings',
    }[p.id] ?? 'lint'
  );
}

function lintOutput(p: Project, r: Random): string {
  switch (p.id) {
    case 'durations':
      return `All checks passed!\nSuccess: no issues found in ${r.int(8, 14)} source files`;
    case 'orders':
      return '(no output)';
    case 'retry':
      return '(no output)';
    default:
      return `    Checking csvmerge v0.4.2 (/repo)\n    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in ${(1 + r.float() * 3).toFixed(2)}s`;
  }
}
