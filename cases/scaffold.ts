import { basename } from 'node:path';
import type { Direction, Message, Transcript } from '../harness/types.ts';
import { InputError } from '../harness/errors.ts';
import { importTranscript, type ImportFormat } from '../harness/importers/index.ts';

/**
 * `case from-session`: a case file scaffolded from a real session, ready for a person to label.
 * Nothing is labelled automatically — `assertions` and `reference.facts` stay empty — but statements
 * that look like hedges, assumptions or open questions are listed under `provenance.suggestions` so
 * the labeller knows where to look.
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
  /** The spawning tool call (return / spawn); default: the first call that has a child session (return) or the first Agent/Task call (spawn). */
  call?: string;
  id?: string;
}

export function scaffoldCase(o: ScaffoldOptions): Record<string, unknown> {
  const { transcript, stats } = importTranscript(o.file, { from: o.from ?? 'auto' });
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
  return {
    ...base,
    ...parts,
    assertions: [],
    reference: { facts: [], caveats: [] },
    provenance: {
      file: o.file,
      format: stats.format,
      imported: {
        messages: stats.messages,
        toolCalls: stats.toolCalls,
        pairedResults: stats.pairedResults,
        orphans: stats.orphans,
        children: stats.children,
      },
      labelled: false,
      howToLabel:
        'docs/cases.md: add assertions (kind, statement, claim, cues, qualifierCues) and reference facts; `handoff-eval validate` checks them',
      suggestions: suggestions(source),
    },
  };
}

function returnParts(t: Transcript, o: ScaffoldOptions): Record<string, unknown> {
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
  const callId =
    o.call ??
    t.messages.flatMap((m) => m.toolCalls ?? []).find((c) => /^(agent|task|spawn)/i.test(c.name))?.id;
  if (!callId)
    throw new InputError(
      'no_spawn',
      `${o.file}: --call: no Agent/Task/spawn call found; name the spawning call with --call`,
    );
  const at = indexOfCall(t.messages, callId);
  return { source: strip({ ...t, messages: t.messages.slice(0, at + 1) }), spawnCallId: callId };
}

function indexOfCall(messages: Message[], callId: string): number {
  const at = messages.findIndex((m) => m.toolCalls?.some((c) => c.id === callId));
  if (at < 0) throw new InputError('no_call', `--call: no tool call "${callId}" in the session`);
  return at;
}

/**
 * The parent's messages up to the spawn call. Of the spawning message's calls only the chosen one stays
 * (pending: the return supplies its result); sibling calls made alongside it are left out, since
 * their results belong to other children.
 */
function upToCall(messages: Message[], at: number, callId: string): Message[] {
  const head = messages.slice(0, at + 1).map((m) => ({ ...m }));
  const last = head[head.length - 1]!;
  last.toolCalls = last.toolCalls!.filter((c) => c.id === callId);
  return head;
}

/** A case carries the session itself, not the importer's bookkeeping or other children. */
function strip(t: Transcript): Transcript {
  return { ...(t.id ? { id: t.id } : {}), agents: t.agents, messages: t.messages };
}

const hedges: [RegExp, string][] = [
  [
    /\b(could not|couldn't|cannot|can't|unable to) (determine|verify|confirm|tell|find)\b|\bunclear\b|\bnot (yet )?verified\b|\bunverified\b/i,
    'hedged',
  ],
  [/\bassum(e|ed|ing|ption)\b|\bpresumably\b|\btaking .* as given\b/i, 'assumption'],
  [/\bopen question\b|\bunresolved\b|\bstill need to\b|\bTODO\b|\?$/, 'unresolved'],
];

/** Sentences of the assistant's text that look like hedges, assumptions or open questions (first 40). */
export function suggestions(t: Transcript): { suggestedKind: string; statement: string }[] {
  const out: { suggestedKind: string; statement: string }[] = [];
  for (const m of t.messages) {
    if (m.role !== 'assistant' || !m.text) continue;
    for (const sentence of m.text.split(/(?<=[.!?])\s+|\n+/)) {
      const s = sentence.trim();
      const hit = hedges.find(([re]) => re.test(s));
      if (hit && s.length > 12 && s.length < 400) out.push({ suggestedKind: hit[1], statement: s });
      if (out.length >= 40) return out;
    }
  }
  return out;
}

function slug(name: string): string {
  return (
    name
      .replace(/\.[a-z]+$/i, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 60) || 'session'
  );
}
