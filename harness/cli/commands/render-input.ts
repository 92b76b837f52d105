import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Case, Direction, Transcript } from '../../types.ts';
import { InputError } from '../../errors.ts';
import { allTrailItems } from '../../transcript/view.ts';
import { toCase } from '../../../cases/load.ts';
import { childCall, returnParts } from '../../../cases/scaffold.ts';
import { readText } from '../../text/read-text.ts';

/** What `render` reads: the flags that shape a case from a bare transcript. */
export interface RenderInputArgs {
  file: string;
  strategy: string;
  task?: string;
  direction?: Direction;
  spawnCall?: string;
  child?: string;
}

/** A case file, a normalised transcript, or anything `import` reads. */
export async function loadInput(args: RenderInputArgs): Promise<Case> {
  if (!existsSync(args.file)) throw new InputError('not_found', `${args.file}: no such file or directory`);
  const raw = statSync(args.file).isFile() ? parseJson(readText(args.file)) : undefined;
  if (isRecord(raw) && 'source' in raw && 'task' in raw) return caseFromFile(raw, args.file);
  let transcript: Transcript;
  if (isRecord(raw) && Array.isArray(raw.messages) && isRecord(raw.agents))
    transcript = raw as unknown as Transcript;
  else {
    const { importTranscript } = await import('../../importers/index.ts');
    transcript = importTranscript(args.file).transcript;
  }
  const direction: Direction =
    args.direction ??
    (args.child !== undefined ? 'return' : args.strategy.startsWith('spawn-') ? 'spawn' : 'escalation');
  if (args.child !== undefined && direction !== 'return')
    throw new InputError('usage', `--child picks the child that returns: use it with --direction return`);
  const parts =
    args.child !== undefined
      ? (returnParts(transcript, { file: args.file, call: childCall(transcript, args.child, args.file) }) as {
          source: Transcript;
          receiverHistory: Transcript;
        })
      : { source: transcript };
  return {
    id:
      basename(args.file)
        .replace(/\.[^.]+$/, '')
        .replace(/[^A-Za-z0-9._-]/g, '_') || 'transcript',
    suite: 'render',
    direction,
    task: args.task ?? "(the receiving agent's task follows here)",
    ...parts,
    ...(direction === 'spawn'
      ? { spawnCallId: args.spawnCall ?? defaultSpawnCall(transcript, args.file) }
      : {}),
    assertions: [],
    reference: { facts: [], caveats: [] },
    criteria: [],
  };
}

async function caseFromFile(raw: Record<string, unknown>, file: string): Promise<Case> {
  const suiteFile = join(dirname(file), '..', 'suite.json');
  const suite = existsSync(suiteFile) ? (parseJson(readText(suiteFile)) as Record<string, unknown>) : {};
  return toCase(raw, file, dirname(file), {
    id: String(suite.id ?? raw.suite ?? 'render'),
    criteria: (suite.criteria as string[]) ?? [],
    direction: (suite.direction as Direction) ?? 'return',
  });
}

function defaultSpawnCall(t: Transcript, file: string): string {
  const child = Object.keys(t.children ?? {})[0];
  if (child) return child;
  const spawn = allTrailItems(t).find((x) => /^(agent|task|spawn)/i.test(x.call.name));
  if (!spawn) throw new InputError('usage', `${file}: no spawn call found; pass --spawn-call <tool call id>`);
  return spawn.call.id;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
