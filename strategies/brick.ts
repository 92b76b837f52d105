import type { Transcript, TruncationMarker, Turn } from '../harness/types.ts';
import { viewOf } from '../harness/transcript/view.ts';
import { formatCall } from './render.ts';

/**
 * The summary "brick" (ADR 0029): per-turn lines, each tool result capped, newest turns first until
 * the character budget, oldest dropped. With `markers` (ADR 0093 C) every cut says so; without, the
 * legacy brick truncates silently. ADR 0093 C also keeps a head+tail of a single over-budget turn
 * instead of emptying the brick; the legacy brick drops it.
 */
export interface BrickOptions {
  resultCap: number;
  budgetChars: number;
  markers: boolean;
}

export interface Brick {
  text: string;
  markers: TruncationMarker[];
  turnsKept: number;
  turnsDropped: number;
}

export const resultMarker = '… (truncated — full result in the session history)';
export const turnsMarker = (n: number) => `(earlier activity omitted — ${n} turn${n === 1 ? '' : 's'})`;
export const turnCutMarker = (n: number) => `… (${n} characters of this turn omitted) …`;

export function buildBrick(transcript: Transcript, opts: BrickOptions): Brick {
  const markers: TruncationMarker[] = [];
  const blocks = viewOf(transcript).turns.map((t) => turnBlock(transcript, t, opts, markers));
  const kept: string[] = [];
  let used = 0;
  let i = blocks.length - 1;
  for (; i >= 0; i--) {
    const b = blocks[i]!;
    if (used + b.length + 1 > opts.budgetChars) break;
    kept.unshift(b);
    used += b.length + 1;
  }
  if (kept.length === 0 && i >= 0 && opts.markers) {
    kept.unshift(headTail(blocks[i]!, opts.budgetChars, markers));
    i--;
  }
  const dropped = i + 1;
  if (dropped > 0 && opts.markers) {
    const marker = turnsMarker(dropped);
    markers.push({ text: marker, kind: 'turns', dropped });
    kept.unshift(marker);
  }
  return { text: kept.join('\n'), markers, turnsKept: blocks.length - dropped, turnsDropped: dropped };
}

function turnBlock(t: Transcript, turn: Turn, opts: BrickOptions, markers: TruncationMarker[]): string {
  const lines: string[] = [`Turn ${turn.index + 1}${turn.userText ? ` — user: ${oneLine(turn.userText)}` : ''}`];
  const trail = new Map(turn.trail.map((x) => [x.messageIndex, x] as const));
  for (let i = turn.start; i < turn.end; i++) {
    const m = t.messages[i]!;
    if (m.role !== 'assistant') continue;
    const who = m.agent ?? 'assistant';
    if (m.text) lines.push(`  ${who}: ${oneLine(m.text)}`);
    for (const call of m.toolCalls ?? []) {
      const result = viewOf(t).results.get(call.id);
      lines.push(`  ${who} called ${formatCall(call)} → ${result ? capResult(result.content, opts, markers) : '(no result)'}`);
    }
  }
  void trail;
  return lines.join('\n');
}

function capResult(content: string, opts: BrickOptions, markers: TruncationMarker[]): string {
  const flat = oneLine(content);
  if (flat.length <= opts.resultCap) return flat;
  if (!opts.markers) return flat.slice(0, opts.resultCap);
  markers.push({ text: resultMarker, kind: 'result', dropped: flat.length - opts.resultCap });
  return `${flat.slice(0, opts.resultCap)} ${resultMarker}`;
}

function headTail(block: string, budget: number, markers: TruncationMarker[]): string {
  const omitted = block.length - budget;
  const marker = turnCutMarker(omitted + 0);
  const room = Math.max(0, budget - marker.length - 2);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const cut = block.length - head - tail;
  const text = `${block.slice(0, head)}\n${turnCutMarker(cut)}\n${block.slice(block.length - tail)}`;
  markers.push({ text: turnCutMarker(cut), kind: 'brick', dropped: cut });
  return text;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
}
