import type { Command } from '../command.ts';
import { mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../../core/atomic-write.ts';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { HarnessError, InputError } from '../../core/errors.ts';
import {
  importAll,
  importFormats,
  importTranscript,
  readPipe,
  type ImportFormat,
} from '../../importers/index.ts';
import { scaffoldFrom, slug, type ScaffoldOptions } from '../../../cases/scaffold.ts';
import { labelCaseFile, labelCounts, locateProposals, mergeProposals } from '../../../cases/label-case.ts';
import { modelProposals } from '../../../cases/model-labeller.ts';
import type { Assertion, Direction, Transcript } from '../../core/index.ts';
import { numberFlag } from '../../config/numeric-flags.ts';

interface CaseArgs {
  transcript: string;
  task: string;
  direction: Direction;
  from: ImportFormat | 'auto';
  call?: string;
  id?: string;
  out?: string;
  all: boolean;
  labeller?: string;
  config?: string;
  instance?: string;
  sample?: number;
}

const labellerOption = {
  type: 'string',
  describe:
    'also ask a model for proposals, <provider>:<model> (anthropic or openai; through the harness call path and cache)',
} as const;

const fromSession: Command<CaseArgs> = {
  command: 'from-session <transcript>',
  describe: 'Scaffold a case file from a real session, with proposed assertions for a person to confirm',
  builder: (y: Argv<object>) =>
    y
      .positional('transcript', {
        type: 'string',
        demandOption: true,
        describe: 'a transcript file or Claude Code session directory (any importable format)',
      })
      .option('task', { type: 'string', demandOption: true, describe: 'what the receiving agent is asked' })
      .option('direction', {
        choices: ['escalation', 'return', 'spawn'] as const,
        default: 'escalation' as const,
        describe: 'which handoff the case replays',
      })
      .option('from', {
        choices: ['auto', ...importFormats] as const,
        default: 'auto' as const,
        describe: 'input format',
      })
      .option('call', {
        type: 'string',
        describe: 'return/spawn: the spawning tool call id (default: the first one)',
      })
      .option('id', { type: 'string', describe: 'case id (default: from the file name)' })
      .option('instance', {
        type: 'string',
        describe:
          'which session of a multi-session file: OpenHands instance_id, record or element index (default: first; as `import --instance`)',
      })
      .option('sample', {
        type: 'string',
        coerce: numberFlag('--sample', 'non-negative integer'),
        describe: 'inspect_ai: 0-based sample index (default 0)',
      })
      .option('all', {
        type: 'boolean',
        default: false,
        describe:
          'one case per session of the file or folder (as `import --all`), written to the --out folder',
      })
      .option('labeller', labellerOption)
      .option('config', { type: 'string', describe: 'config file (provider settings, cache) for --labeller' })
      .option('out', {
        type: 'string',
        describe: 'write the case here (default: stdout); with --all, a folder',
      }) as unknown as Argv<CaseArgs>,
  handler: async (args) => {
    await readPipe(args.transcript);
    return args.all ? fromEverySession(args) : fromOneSession(args);
  },
};

function options(args: CaseArgs, file: string, id?: string): ScaffoldOptions {
  return {
    file,
    task: args.task,
    direction: args.direction,
    from: args.from,
    call: args.call,
    id,
    ...(args.instance !== undefined ? { instance: args.instance } : {}),
    ...(args.sample !== undefined ? { sample: args.sample } : {}),
  };
}

async function withModelLabels(c: Record<string, unknown>, args: CaseArgs): Promise<Record<string, unknown>> {
  if (!args.labeller) return c;
  const source = c.source as Transcript;
  const model = await modelProposals([source], {
    spec: args.labeller,
    config: args.config,
    caseId: String(c.id),
  });
  const merged = mergeProposals(c.assertions as Assertion[], model);
  const located = await locateProposals([source], merged, {
    labeller: args.labeller,
    config: args.config,
    caseId: String(c.id),
  });
  const provenance = c.provenance as Record<string, unknown>;
  const labels = { ...labelCounts(located.assertions, args.labeller), ...located.provenance };
  return { ...c, assertions: located.assertions, provenance: { ...provenance, labels } };
}

async function fromOneSession(args: CaseArgs): Promise<void> {
  const result = importTranscript(args.transcript, {
    from: args.from,
    ...(args.instance !== undefined ? { instance: args.instance } : {}),
    ...(args.sample !== undefined ? { sample: args.sample } : {}),
  });
  const c = await withModelLabels(scaffoldFrom(result, options(args, args.transcript, args.id)), args);
  const text = `${JSON.stringify(c, null, 2)}\n`;
  if (!args.out) return void process.stdout.write(text);
  writeFileAtomic(args.out, text);
  const n = (c.assertions as unknown[]).length;
  process.stderr.write(
    `wrote ${args.out}: ${n} proposed assertions to confirm, reference facts to add (docs/importers.md, "Proposed labels")\n`,
  );
}

/** One case per session; a session that cannot become a case is one stderr line and exit 2 at the end. */
async function fromEverySession(args: CaseArgs): Promise<number> {
  if (!args.out) throw new InputError('usage', '--all needs --out <folder> (one case file per session)');
  if (args.id !== undefined || args.call !== undefined)
    throw new InputError('usage', '--all names each case after its session; drop --id/--call');
  if (args.instance !== undefined || args.sample !== undefined)
    throw new InputError('usage', '--all makes a case of every session; drop --instance/--sample');
  mkdirSync(args.out, { recursive: true });
  let written = 0;
  let failed = 0;
  const taken = new Set<string>();
  for (const s of importAll(args.transcript, args.from)) {
    try {
      if (s.error) throw s.error;
      let id = slug(s.name);
      for (let n = 2; taken.has(id); n++) id = `${slug(s.name)}-${n}`;
      taken.add(id);
      const c = await withModelLabels(scaffoldFrom(s.result!, options(args, s.file, id)), args);
      writeFileAtomic(join(args.out, `${id}.json`), `${JSON.stringify(c, null, 2)}\n`);
      written++;
    } catch (err) {
      if (!(err instanceof InputError) && !(err instanceof HarnessError)) throw err;
      failed++;
      process.stderr.write(`handoff-eval: ${s.name}: ${err.message}\n`);
    }
  }
  process.stderr.write(
    `wrote ${written} case${written === 1 ? '' : 's'} to ${args.out}${failed ? `; ${failed} failed` : ''}\n`,
  );
  return failed > 0 ? 2 : 0;
}

interface LabelArgs {
  case: string;
  labeller?: string;
  config?: string;
  out?: string;
}

const label: Command<LabelArgs> = {
  command: 'label <case>',
  describe: 'Propose assertions for a case from its source transcripts (confirmed labels are kept)',
  builder: (y: Argv<object>) =>
    y
      .positional('case', { type: 'string', demandOption: true, describe: 'a case file' })
      .option('labeller', labellerOption)
      .option('config', { type: 'string', describe: 'config file (provider settings, cache) for --labeller' })
      .option('out', {
        type: 'string',
        describe: 'write the labelled case here (may be the case file itself; default: stdout)',
      }) as unknown as Argv<LabelArgs>,
  handler: async (args) => {
    const c = await labelCaseFile(args.case, { labeller: args.labeller, config: args.config });
    const text = `${JSON.stringify(c, null, 2)}\n`;
    if (!args.out) return void process.stdout.write(text);
    writeFileAtomic(args.out, text);
    const counts = (c.provenance as { labels: { proposed: number; confirmed: number } }).labels;
    process.stderr.write(
      `wrote ${args.out}: ${counts.proposed} proposed, ${counts.confirmed} confirmed assertions\n`,
    );
  },
};

/** `handoff-eval case <subcommand>`: tools for writing cases. */
export const caseCommand: Command<object> = {
  command: 'case <subcommand>',
  describe:
    'Case tools: `case from-session <transcript> --task "…"` scaffolds a case from a real session; `case label <case.json>` proposes assertions',
  builder: (y) => y.demandCommand(1, 'name a subcommand: from-session, label'),
  subcommands: [fromSession, label],
  handler: () => undefined,
};
