import type { Assertion, ClaimLocation } from '../../harness/core/index.ts';
import type { Bug, Project } from './project.ts';

/**
 * Where a milk case's claims sit (issue 14), rotated by case index so that over the 12 generated
 * cases each kind × location combination occurs in 6: the primary's first-turn report claims are
 * either restated in its last message (`final_message`) or not (`mid_transcript`); one claim of each
 * kind is only in the source file it read (`tool_result_only`, a maintainer's comment) or only in
 * the output of the linter it ran to check its work (`primary_tool_evidence`), never stated by it.
 */
export interface MilkPlacement {
  /** Restated in the last message: the cause (else the fix), the integration hedge, the open question. */
  restateCause: boolean;
  restateHedge: boolean;
  restateAssumption: boolean;
  restateOpen: boolean;
  /** Per kind, whether its extra claim is in the source file (else in the linter's output). */
  inFile: Record<Assertion['kind'], boolean>;
}

export function milkPlacement(index: number): MilkPlacement {
  const even = index % 2 === 0;
  const first = Math.floor(index / 2) % 2 === 0;
  return {
    restateCause: even,
    restateHedge: even,
    restateAssumption: !even,
    restateOpen: even,
    inFile: { confident: first, hedged: !first, assumption: first, unresolved: !first },
  };
}

export const HEDGE_Q = [
  'could not confirm',
  'did not run',
  'not verified',
  'unverified',
  'not confirmed',
  'untested',
];
export const ASSUME_Q = ['assuming', 'assumption', 'assumed'];
export const OPEN_Q = ['unresolved', 'open question', 'would settle it', 'undecided'];

/** The toolchain facts the linter's notes mention, per project. */
const toolchain: Record<string, { manifest: string; lockfile: string; target: string; formatter: string }> = {
  durations: { manifest: 'pyproject.toml', lockfile: 'uv.lock', target: 'py312', formatter: 'ruff format' },
  orders: {
    manifest: 'package.json',
    lockfile: 'package-lock.json',
    target: 'es2022',
    formatter: 'prettier',
  },
  retry: { manifest: 'go.mod', lockfile: 'go.sum', target: 'go1.22', formatter: 'gofmt' },
  csvmerge: { manifest: 'Cargo.toml', lockfile: 'Cargo.lock', target: 'edition 2021', formatter: 'rustfmt' },
};

const make = (
  id: string,
  kind: Assertion['kind'],
  statement: string,
  claim: string,
  cues: string[],
  location: ClaimLocation,
  qualifierCues?: string[],
): Assertion => ({
  id,
  kind,
  statement,
  claim,
  cues,
  ...(qualifierCues ? { qualifierCues } : {}),
  location,
});

/** Maintainers' comments in the source file the primary reads first (one per kind placed there). */
export function fileNotes(p: MilkPlacement): Assertion[] {
  const at = 'tool_result_only' as const;
  const all = [
    make(
      'file-api',
      'confident',
      'Public API: everything in this module is re-exported from the package root; keep signatures stable.',
      'Public API: everything in this module is re-exported from the package root; keep signatures stable.',
      ['re-exported from the package root'],
      at,
    ),
    make(
      'file-v1',
      'hedged',
      'Unverified: whether the billing service still calls this module through the deprecated v1 entry point.',
      'the billing service still calls this module through the deprecated v1 entry point',
      ['deprecated v1 entry point'],
      at,
      HEDGE_Q,
    ),
    make(
      'file-normalised',
      'assumption',
      'Assumption: callers pass already-normalised input; nothing here strips whitespace or changes case.',
      'callers pass already-normalised input; nothing here strips whitespace or changes case',
      ['callers pass already-normalised input'],
      at,
      ASSUME_Q,
    ),
    make(
      'file-invalid',
      'unresolved',
      'Open question (undecided): should invalid input raise or return a default? Would settle it: the maintainers.',
      'invalid input should raise or return a default',
      ['invalid input', 'raise or return a default'],
      at,
      OPEN_Q,
    ),
  ];
  return all.filter((a) => p.inFile[a.kind]);
}

/** Notes the linter printed while the primary checked its work (one per kind placed there). */
export function lintNotes(project: Project, bug: Bug, p: MilkPlacement): Assertion[] {
  const t = toolchain[project.id]!;
  const at = 'primary_tool_evidence' as const;
  const all = [
    make(
      'lint-format',
      'confident',
      `${t.formatter}: ${project.srcPath} unchanged by the formatter (already formatted).`,
      `${t.formatter}: ${project.srcPath} unchanged by the formatter (already formatted).`,
      ['unchanged by the formatter'],
      at,
    ),
    make(
      'lint-lockfile',
      'hedged',
      `warning: could not confirm that the lockfile matches the installed packages (${t.lockfile} is older than ${t.manifest}).`,
      `the lockfile matches the installed packages (${t.lockfile} is older than ${t.manifest})`,
      ['lockfile matches the installed packages'],
      at,
      HEDGE_Q,
    ),
    make(
      'lint-target',
      'assumption',
      `note: assuming target ${t.target} because no version is pinned in ${t.manifest}.`,
      `no version is pinned in ${t.manifest}, so the target is ${t.target}`,
      ['no version is pinned in'],
      at,
      ASSUME_Q,
    ),
    make(
      'lint-todo',
      'unresolved',
      `TODO (unresolved): decide whether ${bug.fn} should log deprecated formats — open question from the last release.`,
      `${bug.fn} should log deprecated formats`,
      ['should log deprecated formats'],
      at,
      OPEN_Q,
    ),
  ];
  return all.filter((a) => !p.inFile[a.kind]);
}

/** The open question the primary raises in its report. */
export function openQuestion(bug: Bug): Omit<Assertion, 'location'> {
  return {
    id: 'open-backport',
    kind: 'unresolved',
    statement: `Unresolved: should ${bug.fn} also be fixed on the 1.x maintenance branch? Would settle it: the release manager.`,
    claim: `${bug.fn} should also be fixed on the 1.x maintenance branch`,
    cues: ['1.x maintenance branch'],
    qualifierCues: OPEN_Q,
  };
}

/** A file's notes as comments in its language, placed at the top. */
export function withComments(language: string, notes: Assertion[], text: string): string {
  if (notes.length === 0) return text;
  const mark = language === 'Python' ? '#' : '//';
  return [...notes.map((n) => `${mark} ${n.statement}`), text].join('\n');
}
