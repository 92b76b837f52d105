import type { Transcript } from '../../harness/core/index.ts';
import { at, checkLabels, clean, conf, LABELLER, load, origins, qual } from './common.ts';

/**
 * Three cases from the claude-code-v2-teammates session (a parent spawning alice, bob and carol in
 * git worktrees, merging their branches, then a second round of three): a return (ledgerline), a
 * spawn (spawn-context) and a three-child return (multi-child).
 */
const FILE = 'claude-code-v2-teammates';
const ALICE = 'toolu_01GmrK6tgdD9D5xD6W5X9UUy';
const ROUND2 = [
  'toolu_017y4gSjMWeQ3L2DAKiygU2y',
  'toolu_01N26s4U6vDxE1NRAH5CyCNf',
  'toolu_0151DrVyXBXfb63SXGNF1qDb',
];

function provenance(trimmed: string) {
  return {
    source: `../shared/transcripts/${FILE}/ (parent ef958aa1-….jsonl and subagents/agent-*.jsonl)`,
    ...origins.teammates,
    importedWith: 'harness/importers (claude-code, --from auto)',
    trimmed,
    labelledBy: LABELLER,
  };
}

/** Parent messages up to `end` (exclusive), then message `end` keeping only the given calls. */
function parentUpTo(parent: Transcript, end: number, keepCalls?: string[]): Transcript {
  const messages = parent.messages.slice(0, end + 1).map((m) => ({ ...m }));
  const last = messages[end]!;
  if (keepCalls) last.toolCalls = last.toolCalls!.filter((c) => keepCalls.includes(c.id));
  return clean({ ...parent, messages }, { id: 'teammates-parent' });
}

export function teammatesCases(dir: string) {
  const parent = load(dir, FILE);
  const children = parent.children!;
  const ledgerline = aliceReturnCase(parent, children);
  const spawn = spawnAliceCase(parent);
  const multi = round2Case(parent, children);
  return { ledgerline, spawn, multi };
}

type Children = NonNullable<Transcript['children']>;

function aliceReturnCase(parent: Transcript, children: Children) {
  const alice = clean(children[ALICE]!, { id: 'alice', meta: { spawnedBy: ALICE } });

  // ledgerline: alice returns to the parent, whose history ends with her pending spawn call. Her
  // report (the final message) carries the confident claims; what she never says is in two tool
  // results: the 403 on the lucumr fetch (yet the article is listed as a source) and the WebFetch
  // summary's hedge about the Piebald index page (resolved by her later raw fetches, so not a caveat
  // the parent must carry).
  const aliceLabels = aliceReturnLabels();
  checkLabels(aliceLabels, [alice]);
  const ledgerline = {
    id: 'real-teammates-alice-return',
    title: 'Real session: alice (plan-mode research) returns to the orchestrating parent',
    task: "alice is back from round 1. Tell the user what she produced (branch, commit, document) and what her document says about plan mode's limitations. Flag anything in her report you would not take at face value.",
    receiverHistory: parentUpTo(parent, 9, [ALICE]),
    source: alice,
    receiverAgent: 'main',
    // alice's report cites no table.column or file:line for its claims, so provenance is not judged
    // here; she flags nothing as unverified or assumed, so there is no caveat to carry either.
    criteria: ['correctness'],
    assertions: aliceLabels,
    reference: {
      facts: [
        {
          id: 'f-branch',
          text: 'alice committed work/research-plan-mode.md on alice/research-plan-mode as ad2d13474e6b',
          cues: ['alice/research-plan-mode'],
        },
        { id: 'f-words', text: 'the document is ~873 words, over the 500–800 target', cues: ['873 words'] },
        {
          id: 'f-limits',
          text: 'limitations include harness-only enforcement (issues #32934 and #26930)',
          cues: ['harness-only enforcement'],
        },
        {
          id: 'f-403',
          text: "the lucumr.pocoo.org article is listed as a source, but alice's fetch of it failed with HTTP 403",
          cues: ['lucumr.pocoo.org', '403'],
        },
      ],
      caveats: [],
    },
    tags: ['real', 'claude-code'],
    provenance: provenance(
      "receiverHistory: parent messages 0–9, the spawning message (9) reduced to alice's Agent call (its three TaskUpdate calls and the bob/carol Agent calls, issued in parallel, dropped with their results); source: alice's subagent transcript, whole.",
    ),
  };
  return ledgerline;
}

/** spawn-context: the parent at the moment it spawns alice; the user's request includes the merge. */
function spawnAliceCase(parent: Transcript) {
  const spawnSource = parentUpTo(parent, 9);
  const spawnLabels = [conf('clean', 'Clean master on `master` branch.', ['clean master'])];
  checkLabels(spawnLabels, [spawnSource]);
  const aliceCall = parent.messages[9]!.toolCalls!.find((c) => c.id === ALICE)!;
  const spawn = {
    id: 'real-teammates-spawn-alice',
    title:
      'Real session: the parent spawns alice mid-turn while the user asked it to merge all three branches afterwards',
    task: (aliceCall.input as { prompt: string }).prompt,
    source: spawnSource,
    spawnCallId: ALICE,
    receiverAgent: 'alice',
    assertions: spawnLabels,
    reference: {
      facts: [
        {
          id: 'f-master',
          text: 'the main branch of the experiment is `master`, not `main`',
          cues: ['`master`, not `main`'],
        },
        {
          id: 'f-branch',
          text: 'commit on a new branch alice/research-plan-mode',
          cues: ['alice/research-plan-mode'],
        },
        { id: 'f-doc', text: 'write work/research-plan-mode.md', cues: ['work/research-plan-mode.md'] },
        { id: 'f-head', text: 'master is at 04752c6 (Add intent)', cues: ['04752c6'] },
      ],
      caveats: [],
      orchestration: {
        request:
          'merge the branches from the 3 worktrees in master and then ask the teammates to pull the changes from master for the comparison step',
        cues: ['merge the branches', 'master'],
      },
      expectedWords: 150,
    },
    tags: ['real', 'claude-code'],
    provenance: provenance(
      'source: parent messages 0–9 (up to and including the message with the six parallel calls that spawn alice, bob and carol); everything after it (their results, the merges, round 2) dropped.',
    ),
  };
  return spawn;
}

/** multi-child: the three round-2 children return together; they disagree on the task board. */
function round2Case(parent: Transcript, children: Children) {
  const round2 = ROUND2.map((id) =>
    clean(children[id]!, { id: Object.keys(children[id]!.agents)[0]!, meta: { spawnedBy: id } }),
  );
  const multiLabels = round2Labels();
  checkLabels(multiLabels, round2);
  // Every label is in one of the three comparison sections, i.e. the children's final messages.
  const multiLocated = multiLabels.map((a) => at('final_message', a));
  const multi = {
    id: 'real-teammates-round2',
    title:
      'Real session: three round-2 teammates return comparison sections that disagree about the task board',
    task: 'All three round-2 teammates are back. Before merging, tell the user how plan mode, teammates and Beads compare according to their comparison sections, where the three disagree, and what none of them checked.',
    receiverHistory: parentUpTo(parent, 25),
    source: round2[0]!,
    sources: round2,
    receiverAgent: 'main',
    // None of the three flags anything as unverified, assumed or open: no caveat to carry.
    criteria: ['correctness'],
    assertions: multiLocated,
    reference: {
      facts: [
        {
          id: 'f-shas',
          text: 'round-2 commits: alice 9877e04, bob 2552732, carol 3fd7533',
          cues: ['9877e04'],
        },
        {
          id: 'f-resurrect',
          text: 'SendMessage did not resurrect the terminated round-1 agents; round 2 needed fresh spawns',
          cues: ['resurrect'],
        },
        {
          id: 'f-gate',
          text: 'plan mode is the one option with a hard approval gate',
          cues: ['hard approval gate'],
        },
      ],
      caveats: [],
      contradictions: [
        {
          between: ['a2-board', 'c2-board'],
          topic: "whether teammates' task board persists (alice: persistent; carol: session-local)",
        },
        {
          between: ['b2-board', 'c2-board'],
          topic: "whether teammates' task board persists (bob: persistent; carol: session-local)",
        },
      ],
      notSearched: [
        'any source beyond the three round-1 documents (no web or documentation lookups in round 2)',
      ],
    },
    tags: ['real', 'claude-code'],
    provenance: provenance(
      'receiverHistory: parent messages 0–25, ending with the message whose three parallel Agent calls spawn alice2, bob2 and carol2 (still pending); sources: those three subagent transcripts, whole.',
    ),
  };
  return multi;
}

/** What alice's report claims (final message) and what only her tool results show. */
function aliceReturnLabels() {
  const aliceReport = [
    conf('branch', '**Branch**: `alice/research-plan-mode` (branched from `master` at `04752c6`)', [
      'alice/research-plan-mode',
      '04752c6',
    ]),
    conf('sha', '**Commit SHA**: `ad2d13474e6b9250b23a3323ea6997603f2e9ef5`', ['ad2d13474e6b']),
    conf(
      'words',
      '**Word count**: ~873 words (target was 500–800; slightly over, but covers all four required sections without padding)',
      ['873 words', 'target was 500–800'],
    ),
    conf(
      'limits',
      'limitations cover coarse binary granularity, lack of built-in progress tracking, no handoff semantics, harness-only enforcement (citing issues #32934 and #26930), and prompt-level rather than protocol-level enforcement',
      ['harness-only enforcement', '#32934'],
    ),
    conf(
      'source-lucumr',
      '- [Armin Ronacher — "What Actually Is Claude Code\'s Plan Mode?"](https://lucumr.pocoo.org/2025/12/17/what-is-plan-mode/)',
      ['lucumr.pocoo.org/2025/12/17'],
    ),
  ].map((a) => at('final_message', a));
  const aliceLabels = [
    ...aliceReport,
    at(
      'tool_result_only',
      conf('fetch-403', 'Request failed with status code 403', ['request failed with status code 403']),
    ),
    at(
      'tool_result_only',
      qual(
        'piebald-index',
        'hedged',
        'Based on the GitHub repository index, I can identify these tools but cannot access the actual prompt text from this page alone.',
        'the actual prompt text is available from this page alone',
        ['actual prompt text', 'this page alone'],
        ['cannot access'],
      ),
    ),
  ];
  return aliceLabels;
}

/** The round-2 children's confident claims about the task board and plan mode's gate. */
function round2Labels() {
  const multiLabels = [
    conf(
      'a2-board',
      'Teammates trade that for parallelism, a persistent task board with ownership/dependencies, and named resumable handoff',
      ['persistent task board', 'named resumable handoff'],
    ),
    conf(
      'a2-gate',
      'Plan Mode is a single-actor vertical gate with a native approval UI and hard tool-layer enforcement',
      ['hard tool-layer enforcement'],
    ),
    conf(
      'b2-board',
      'teammates enable real parallel fan-out across worktrees with a persistent task board and structured handoff by name',
      ['persistent task board', 'structured handoff by name'],
    ),
    conf('b2-scope', 'are session- and team-scoped with no durable git-backed graph', [
      'session- and team-scoped',
    ]),
    conf(
      'c2-board',
      "Beads wins on cross-session persistence (teammates' task board and running contexts are session-local)",
      ['task board and running contexts are session-local'],
    ),
    conf('c2-gate', "Plan Mode wins on its hard approval gate (a safety rail Beads simply doesn't have)", [
      'hard approval gate',
    ]),
  ];
  return multiLabels;
}
