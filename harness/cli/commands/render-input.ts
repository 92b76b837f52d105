import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Arm, Case, Direction, Strategy, Suite, Transcript } from '../../core/index.ts';
import type { ResolvedConfig } from '../../config/types.ts';
import { InputError, UnknownNameError } from '../../core/errors.ts';
import { loadExperiment } from '../../runner/experiment.ts';
import { getStrategy } from '../../../strategies/index.ts';
import { resolveParams } from '../../../strategies/define.ts';
import { parseParams } from './flags.ts';
import { allTrailItems } from '../../core/transcript/view.ts';
import { toCase } from '../../../cases/load.ts';
import { childCall, returnParts } from '../../../cases/scaffold.ts';
import { readText } from '../../core/text/read-text.ts';
import { isSpawnTool } from '../../importers/spawn-tools.ts';
import { readPipe } from '../../importers/pipe.ts';
import { checkNesting } from '../../importers/depth.ts';

/** What `render` renders: the case, the strategy with its resolved params, the source model alias. */
export interface RenderTarget {
  c: Case;
  strategy: Strategy<any>;
  params: Record<string, unknown>;
  sourceModel: string;
}

export interface RenderTargetArgs extends Omit<RenderInputArgs, 'file' | 'strategy'> {
  file?: string;
  strategy?: string;
  arm?: string;
  param?: string | string[];
  sourceModel?: string;
}

/**
 * A file (case, transcript) or a case of the config's suites (`--case`, `--suite`), under a strategy
 * by name (registered or the config's) or an arm of the config's suites (`--arm`, extra arms and sweeps
 * included): the arm's strategy, params and source model, `--param` on top.
 */
export async function renderTarget(args: RenderTargetArgs, config: ResolvedConfig): Promise<RenderTarget> {
  const needSuites = args.file === undefined || args.arm !== undefined;
  const suites = needSuites ? await loadExperiment(config) : [];
  const arm = args.arm === undefined ? undefined : findArm(suites, args.arm);
  const name = arm?.strategy ?? args.strategy;
  if (!name)
    throw new InputError('usage', 'render: name a strategy (--strategy <name>) or an arm (--arm <name>)');
  const strategy = getStrategy(name, config.strategies, arm ? `--arm ${args.arm}` : '--strategy');
  const params = resolveParams(
    strategy,
    { ...arm?.params, ...parseParams(([] as string[]).concat(args.param ?? [])) },
    `--strategy ${strategy.name}`,
  );
  let c: Case;
  if (args.file !== undefined) c = await loadInput({ ...args, file: args.file, strategy: strategy.name });
  else {
    if (config.cases === 'all')
      throw new InputError(
        'usage',
        "render: name a transcript or case file, or a case of the config's suites (--case <id>)",
      );
    const found = suites.flatMap((s) => s.cases);
    if (found.length > 1)
      throw new InputError(
        'usage',
        `--case: ${config.cases.join(', ')} is in several suites (${[...new Set(found.map((x) => x.suite))].join(', ')}); name one with --suite, or one case`,
      );
    c = found[0]!;
  }
  return { c, strategy, params, sourceModel: args.sourceModel ?? arm?.models.source ?? 'large' };
}

function findArm(suites: readonly Suite[], name: string): Arm {
  const hits = suites.flatMap((s) => s.arms.filter((a) => a.name === name));
  if (hits.length === 0)
    throw new UnknownNameError(
      'arm',
      name,
      [...new Set(suites.flatMap((s) => s.arms.map((a) => a.name)))].sort(),
      '--arm',
    );
  const distinct = new Set(hits.map((a) => JSON.stringify([a.strategy, a.params ?? {}, a.models])));
  if (distinct.size > 1)
    throw new InputError(
      'usage',
      `--arm ${name}: defined differently in several suites; name one with --suite`,
    );
  return hits[0]!;
}

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
  await readPipe(args.file);
  const raw = statSync(args.file).isFile() ? parseJson(readText(args.file)) : undefined;
  // A case or normalised transcript nested thousands deep would overflow the stack when rendered.
  if (raw !== undefined) checkNesting(args.file, raw);
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
  // A return from a session with children is a child's return: the first child unless --child names
  // one (as --spawn-call defaults to the first child); a session without children returns itself.
  const hasChildren = Object.keys(transcript.children ?? {}).length > 0;
  const child = args.child ?? (direction === 'return' && hasChildren ? '0' : undefined);
  const parts =
    child !== undefined
      ? (returnParts(transcript, { file: args.file, call: childCall(transcript, child, args.file) }) as {
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
  const spawn = allTrailItems(t).find((x) => isSpawnTool(x.call.name));
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
