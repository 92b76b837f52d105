import { at, checkLabels, clean, conf, LABELLER, load, origins, qual } from './common.ts';

/** Two single-agent real sessions: a SWE-agent bug fix (milk) and a Claude Code feature session (esc-owned-parity). */
export function milkCase(dir: string) {
  const file = 'sweagent-fc-marshmallow-1867.traj';
  const source = clean(load(dir, file), { id: 'marshmallow-1867' });
  const labels = marshmallowLabels();
  checkLabels(labels, [source]);
  return {
    id: 'real-sweagent-marshmallow-1867',
    title:
      'Real session: SWE-agent fixes TimeDelta rounding in marshmallow (reproduce script only, no test run)',
    task: "Before we submit this patch: does the project's test suite still pass with the change, and what evidence do we have that the fix works? Keep it short.",
    source,
    receiverAgent: 'escalation',
    sessionShape: 'handed-off',
    assertions: labels,
    reference: marshmallowReference(),
    tags: ['real', 'swe-agent'],
    provenance: {
      source: `../shared/transcripts/${file}`,
      ...origins.marshmallow,
      importedWith: 'harness/importers (swe-agent, function-calling history)',
      trimmed: 'nothing: the whole history (the system prompt is folded away by the importer)',
      labelledBy: LABELLER,
    },
  };
}

/** The marshmallow session's claims, located. */
function marshmallowLabels() {
  // Every statement is between tool calls (its last message is "Calling `submit` to submit."); the
  // patch is only in the output of the agent's own commands (the edit's echo, the submitted diff),
  // and the pinned lint tools only in the setup.py it opened.
  const labels = [
    qual(
      'fix',
      'hedged',
      'The code has been updated to use the `round` function, which should fix the rounding issue.',
      'the code has been updated to use the `round` function, which fixes the rounding issue',
      ['`round` function', 'rounding issue'],
      ['should fix', 'suggests'],
    ),
    conf('output', 'The output has changed from 344 to 345', ['344 to 345']),
    qual(
      'fixed',
      'hedged',
      'which suggests that the rounding issue has been fixed',
      'the rounding issue has been fixed',
      ['rounding issue has been fixed'],
      ['suggests', 'should fix'],
    ),
  ].map((a) => at('mid_transcript', a));
  labels.push(
    at(
      'primary_tool_evidence',
      conf('patch', 'return int(round(value.total_seconds() / base_unit.total_seconds()))', [
        'int(round(value.total_seconds()',
      ]),
    ),
    at('tool_result_only', conf('mypy-pin', '"mypy==0.910",', ['"mypy==0.910"'])),
  );
  return labels;
}

function marshmallowReference() {
  return {
    facts: [
      {
        id: 'f-fix',
        text: 'TimeDelta serialization now returns int(round(value.total_seconds() / base_unit.total_seconds())) instead of truncating',
        cues: ['int(round(value.total_seconds()'],
      },
      {
        id: 'f-repro',
        text: 'reproduce.py printed 344 before the change and 345 after',
        cues: ['344', '345'],
      },
      {
        id: 'f-no-suite',
        text: 'the existing test suite was never run during the session; only reproduce.py was',
        cues: ['test suite', 'never run'],
      },
    ],
    caveats: ['fix', 'fixed'],
    evidence: [
      {
        id: 'e-diff',
        text: 'submitted diff: + return int(round(value.total_seconds() / base_unit.total_seconds()))',
        cues: ['int(round(value.total_seconds()'],
      },
    ],
    expectedWords: 80,
  };
}

export function ownedCase(dir: string) {
  const file = 'claude-code-v2-jssoundrecorder-parallel.jsonl';
  const imported = clean(load(dir, file), { id: 'jssoundrecorder' });
  // Pinned to escalation from turn 1: the one agent of the session is the escalation agent.
  const source = {
    ...imported,
    agents: Object.fromEntries(
      Object.entries(imported.agents).map(([k, v]) => [k, { ...v, role: 'escalation' as const }]),
    ),
  };
  // The session's last message restates the port and the audio thread and hedges the worklets; "Vite
  // is all set up" was said once, earlier, between tool calls.
  const labels = [
    conf('vite', 'Vite is all set up and working.', ['vite is all set up']),
    conf('port', 'The dev server is running at **http://localhost:5173**', [
      'dev server is running at',
      'localhost:5173',
    ]),
    conf('thread', 'Audio processing runs on dedicated audio thread', ['dedicated audio thread']),
    qual(
      'worklets',
      'hedged',
      'The worklets should load automatically and you should see "Noise worklet loaded" in the console.',
      'the worklets load automatically',
      ['worklets', 'load automatically'],
      ['should', 'let me know if'],
    ),
  ].map((a) => at(a.id === 'vite' ? 'mid_transcript' : 'final_message', a));
  checkLabels(labels, [source]);
  return {
    id: 'real-claude-code-jssoundrecorder',
    title: 'Real session: after a finished AudioWorklet migration, a one-line question',
    task: 'Thanks! Which command starts the dev server now, and on which port?',
    source,
    receiverAgent: 'main',
    sessionShape: 'owned',
    assertions: labels,
    reference: {
      facts: [
        { id: 'f-dev', text: 'pnpm dev starts the Vite dev server', cues: ['pnpm dev'] },
        { id: 'f-port', text: 'it serves on http://localhost:5173', cues: ['localhost:5173'] },
      ],
      caveats: [],
      expectedWords: 30,
    },
    tags: ['real', 'claude-code'],
    provenance: {
      source: `../shared/transcripts/${file}`,
      ...origins.jssound,
      importedWith: 'harness/importers (claude-code)',
      trimmed:
        "nothing removed; the only agent's role is set to escalation (the session is treated as pinned to escalation from its first turn)",
      labelledBy: LABELLER,
    },
  };
}
