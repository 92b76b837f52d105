import { basename } from 'node:path';
import type { Direction, Draft, Message, Transcript } from '../harness/core/index.ts';
import { InputError } from '../harness/core/errors.ts';
import {
  importTranscript,
  isSpawnTool,
  type ImportFormat,
  type ImportResult,
} from '../harness/importers/index.ts';
import { proposeLabels } from './propose-labels.ts';

/**
 * `case from-session`: a case file scaffolded from a real session, ready for a person to confirm.
 * `assertions` are *proposed* from the source's own words (cases/propose-labels.ts; each has
 * `status: "proposed"` until a person checks it); `reference.facts` stay empty.
 *
 * - escalation: the whole session is the source (the primary's work, handed to a stronger model);
 * - return: a child spawned by the session is the source and the parent's messages up to its spawn
 *   call are the receiver's history (a real parent → child handoff, replayable under every strategy);
 * - spawn: the parent's messages up to and including the spawn call are the source, the call excluded
 *   from every snapshot by `spawnCallId`.
 */
export interface ScaffoldOptions {
  file: string;
  task: string;
  direction: Direction;
  from?: ImportFormat | 'auto';
  /** The spawning tool call (return / spawn); default: the first call that has a child session, else (spawn) the first spawning tool by name (isSpawnTool). */
  call?: string;
  id?: string;
  /** Which session of a multi-session file (as `import --instance` / `--sample`). */
  instance?: string | number;
  sample?: number;
}

export function scaffoldCase(o: ScaffoldOptions): Record<string, unknown> {
  return scaffoldFrom(
    importTranscript(o.file, {
      from: o.from ?? 'auto',
      ...(o.instance !== undefined ? { instance: o.instance } : {}),
      ...(o.sample !== undefined ? { sample: o.sample } : {}),
    }),
    o,
  );
}

/** The same, from a session already imported (`case from-session --all` imports each session once). */
export function scaffoldFrom(
  { transcript, stats }: ImportResult,
  o: ScaffoldOptions,
): Record<string, unknown> {
  const id = o.id ?? slug(basename(o.file));
  const base = {
    id,
    title: `TODO: a one-line title (${basename(o.file)})`,
    direction: o.direction,
    task: o.task,
  };
  const parts =
    o.direction === 'escalation'
      ? { source: strip(transcript) }
      : o.direction === 'return'
        ? returnParts(transcript, o)
        : spawnParts(transcript, o);
  const source = parts.source as Transcript;
  const assertions = proposeLabels([source]);
  return {
    ...base,
    ...parts,
    assertions,
    reference: { facts: [], caveats: [] },
    provenance: {
      file: o.file,
      ...(o.instance !== undefined ? { instance: o.instance } : {}),
      ...(o.sample !== undefined ? { sample: o.sample } : {}),
      format: stats.format,
      imported: {
        messages: stats.messages,
        toolCalls: stats.toolCalls,
        pairedResults: stats.pairedResults,
        orphans: stats.orphans,
        children: stats.children,
      },
      labelled: false,
      labels: { proposed: assertions.length, by: ['cue-lexicon'] },
      howToLabel:
        'check each proposed assertion (docs/importers.md, "Proposed labels"): delete the wrong ones, fix the rest and drop their `status`; add reference facts; `handoff-eval validate` warns while proposals remain',
    },
  };
}

export function returnParts(
  t: Transcript,
  o: Pick<ScaffoldOptions, 'file' | 'call'>,
): Record<string, unknown> {
  const children = t.children ?? {};
  const callId = o.call ?? Object.keys(children)[0];
  if (!callId || !children[callId]) {
    throw new InputError(
      'no_child',
      `${o.file}: --call: ${callId ? `no child session for call "${callId}"` : 'the session has no child sessions'}; children: ${Object.keys(children).join(', ') || '(none)'}`,
    );
  }
  const at = indexOfCall(t.messages, callId);
  return {
    source: strip(children[callId]!),
    receiverHistory: strip({ ...t, messages: upToCall(t.messages, at, callId) }),
  };
}

function spawnParts(t: Transcript, o: ScaffoldOptions): Record<string, unknown> {
  const calls = t.messages.flatMap((m) => m.toolCalls ?? []);
  // A call with a recorded child first (whatever its name), else the first spawning tool by name.
  const callId =
    o.call ??
    calls.find((c) => t.children?.[c.id] !== undefined)?.id ??
    calls.find((c) => isSpawnTool(c.name))?.id;
  if (!callId)
    throw new InputError(
      'no_spawn',
      `${o.file}: --call: no Agent/Task/delegate/spawn call found; name the spawning call with --call`,
    );
  const at = indexOfCall(t.messages, callId);
  return { source: strip({ ...t, messages: t.messages.slice(0, at + 1) }), spawnCallId: callId };
}

function indexOfCall(messages: readonly Message[], callId: string): number {
  const at = messages.findIndex((m) => m.toolCalls?.some((c) => c.id === callId));
  if (at < 0) throw new InputError('no_call', `--call: no tool call "${callId}" in the session`);
  return at;
}

/**
 * The parent's messages up to the spawn call. Of the spawning message's calls only the chosen one stays
 * (pending: the return supplies its result); sibling calls made alongside it are left out, since
 * their results belong to other children.
 */
function upToCall(messages: readonly Message[], at: number, callId: string): Message[] {
  const head = messages.slice(0, at + 1).map((m): Draft<Message> => ({ ...m }));
  const last = head[head.length - 1]!;
  last.toolCalls = last.toolCalls!.filter((c) => c.id === callId);
  return head;
}

/** A case carries the session itself, not the importer's bookkeeping or other children. */
function strip(t: Transcript): Transcript {
  return { ...(t.id ? { id: t.id } : {}), agents: t.agents, messages: t.messages };
}

export function slug(name: string): string {
  return (
    name
      .replace(/\.[a-z]+$/i, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 60) || 'session'
  );
}

/**
 * A child of `t` by its 0-based index, the id of the call that spawned it, or its agent name; the
 * spawning call id, or an InputError listing the children.
 */
export function childCall(t: Transcript, which: string, file: string): string {
  const entries = Object.entries(t.children ?? {});
  const list = entries.map(([id, c], i) => `${i}=${Object.keys(c.agents)[0] ?? '?'} (${id})`).join(', ');
  if (entries.length === 0)
    throw new InputError('no_child', `${file}: --child: the session has no child sessions`);
  const hit = /^\d+$/.test(which)
    ? entries[Number(which)]
    : entries.find(([id, c]) => id === which || which in c.agents);
  if (!hit) throw new InputError('no_child', `${file}: --child: no child "${which}"; children: ${list}`);
  return hit[0];
}
