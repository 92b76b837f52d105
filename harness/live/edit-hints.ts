import type { Case, SimEdit, SimHints, Transcript } from '../core/index.ts';

/**
 * The acting sim's hints for a writable world (docs/live.md): the file changes (edit_file, write_file)
 * the recorded session made in answer to its brief — before its second user turn, since the live
 * loop's brief is only the session's leading user messages. They stand in for the reasoning a model
 * does over the code it read; the sim makes one only once its own calls showed it the file.
 */
export function recordedEdits(t: Transcript): SimEdit[] {
  const out: SimEdit[] = [];
  let users = 0;
  let answered = false;
  for (const m of t.messages) {
    if (m.role === 'user' && m.text && !m.toolResults?.length) {
      if (answered) users++;
      if (users > 0) break;
      continue;
    }
    if (m.role === 'assistant') answered = true;
    for (const c of m.toolCalls ?? [])
      if (c.name === 'edit_file' || c.name === 'write_file')
        out.push({ name: c.name, input: c.input as Record<string, unknown> });
  }
  return out;
}

/** A live source's sim hints: the case's, plus the recorded edits when its world is writable. */
export function liveSimHints(c: Case, source: Transcript, hints: SimHints): SimHints {
  if (!c.world?.writable) return hints;
  const edits = recordedEdits(source);
  return edits.length ? { ...hints, edits } : hints;
}
