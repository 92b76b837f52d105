import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Case, Direction, Message, Transcript } from '../core/index.ts';
import { InputError } from '../core/errors.ts';
import { importTranscript } from '../importers/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { returnParts } from '../../cases/scaffold.ts';
import { generateTranscript } from './generate.ts';

/** One handover the kit runs a strategy on. */
export interface KitInput {
  kind: 'transcripts' | 'cases' | 'generated';
  /** Where it came from, as a failure names it: `<file> (escalation)`, `cases/milk/… (case m-1)`. */
  label: string;
  case: Case;
}

export interface InputOptions {
  transcripts: string[] | false;
  casesDirs: string[] | false;
  generated: number;
  seed: number;
}

/** Every input: real transcripts in each direction, the suites' cases as they are, generated sessions. */
export async function kitInputs(o: InputOptions): Promise<KitInput[]> {
  const out: KitInput[] = [];
  for (const file of o.transcripts === false ? [] : transcriptFiles(o.transcripts)) {
    let t: Transcript;
    try {
      t = importTranscript(file).transcript;
    } catch (err) {
      throw new InputError('kit_input', `${file}: not an importable transcript: ${(err as Error).message}`, {
        cause: err,
      });
    }
    out.push(...handovers(t, file, 'transcripts'));
  }
  for (const dir of o.casesDirs === false ? [] : o.casesDirs) {
    if (!existsSync(dir)) throw new InputError('not_found', `${dir}: no such cases directory`);
    for (const suite of await loadSuites(dir, 'all'))
      for (const c of suite.cases)
        out.push({ kind: 'cases', label: `${c.file ?? suite.id} (case ${c.id}, ${c.direction})`, case: c });
  }
  for (let i = 0; i < o.generated; i++) {
    const t = generateTranscript(`${o.seed}/${i}`, {
      maxTurns: 12,
      receiverSteps: i % 3 === 1,
      compaction: i % 4 === 2,
    });
    out.push(...handovers(t, `generated session ${o.seed}/${i}`, 'generated'));
  }
  return out;
}

/** Importable transcripts: the files (and session folders) given, or those inside the folders given. */
function transcriptFiles(paths: string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) throw new InputError('not_found', `${p}: no such file or folder`);
    if (!statSync(p).isDirectory() || isSessionFolder(p)) {
      out.push(p);
      continue;
    }
    for (const name of readdirSync(p).sort())
      if (!/\.(md|txt)$/i.test(name) && !name.startsWith('.')) out.push(join(p, name));
  }
  return out;
}

/** A Claude Code project folder — one session .jsonl beside its subagents' folder — imports as one session. */
function isSessionFolder(dir: string): boolean {
  const files = readdirSync(dir).filter((f) => !statSync(join(dir, f)).isDirectory());
  return files.length === 1 && files[0]!.endsWith('.jsonl');
}

/**
 * A transcript handed over every way: escalated as it is; returned by each of its real children (the
 * parent up to the spawn call as the receiver's history) or, without children, into a made-up parent
 * whose spawn call is waiting for it; and as a parent spawning a child (at each real spawn call, or a
 * spawn call added at its end).
 */
export function handovers(t: Transcript, label: string, kind: KitInput['kind']): KitInput[] {
  const name = basename(label);
  const make = (direction: Direction, extra: Partial<Case>, tag: string = direction): KitInput => ({
    kind,
    label: `${label} (${tag})`,
    case: {
      id: `${name}-${tag}`.replace(/[^A-Za-z0-9._-]+/g, '-'),
      suite: 'check-strategy',
      direction,
      task: 'Continue the work: answer the original request.',
      source: t,
      assertions: [],
      reference: { facts: [], caveats: [] },
      criteria: [],
      ...extra,
    },
  });
  const out = [make('escalation', {})];
  const children = Object.keys(t.children ?? {});
  if (children.length) {
    for (const [i, call] of children.entries()) {
      const parts = returnParts(t, { file: label, call }) as Pick<Case, 'source' | 'receiverHistory'>;
      out.push(make('return', parts, `return of child ${i + 1}`));
      out.push(make('spawn', { source: upTo(t, call), spawnCallId: call }, `spawn of child ${i + 1}`));
    }
  } else {
    out.push(make('return', { receiverHistory: parentOf(t) }));
    out.push(make('spawn', { source: withSpawnCall(t), spawnCallId: SPAWN_CALL }));
  }
  return out;
}

const SPAWN_CALL = 'kit-spawn-1';

function parentOf(child: Transcript): Transcript {
  const brief = child.messages.find((m) => m.role === 'user' && m.text?.trim())?.text ?? 'Research this.';
  return {
    id: 'kit-parent',
    agents: { parent: { role: 'parent' } },
    messages: [
      { role: 'user', text: 'Find out what the research child finds, then answer.' },
      {
        role: 'assistant',
        agent: 'parent',
        text: 'I will spawn a research child for this.',
        toolCalls: [{ id: SPAWN_CALL, name: 'Agent', input: { prompt: brief } }],
      },
    ],
  };
}

function withSpawnCall(t: Transcript): Transcript {
  const spawn: Message = {
    role: 'assistant',
    agent: Object.keys(t.agents)[0],
    text: 'Spawning a child for the next part.',
    toolCalls: [{ id: SPAWN_CALL, name: 'Agent', input: { prompt: 'Check the remaining items.' } }],
  };
  return { ...t, messages: [...t.messages, spawn] };
}

function upTo(t: Transcript, call: string): Transcript {
  const at = t.messages.findIndex((m) => m.toolCalls?.some((c) => c.id === call));
  return { ...t, children: undefined, messages: t.messages.slice(0, at + 1) };
}
