import type { Transcript } from '../../harness/core/index.ts';
import type { ImportStats } from '../../harness/importers/index.ts';

/**
 * The round-trip property every import must satisfy, checked independently of the importer's own
 * counting: call ids unique per transcript, every result after its call, every call either answered
 * or counted as an orphan, every result either answering a call or counted. Returns the problems.
 */
export function pairingProblems(root: Transcript, stats: ImportStats): string[] {
  const problems: string[] = [];
  let unanswered = 0;
  let unmatched = 0;
  let answered = 0;
  const visit = (t: Transcript, where: string): void => {
    const callAt = new Map<string, number>();
    const resultSeen = new Set<string>();
    t.messages.forEach((m, i) => {
      if (m.role !== 'user' && m.role !== 'assistant')
        problems.push(`${where}[${i}]: role ${String(m.role)}`);
      if (m.agent === undefined || !(m.agent in t.agents))
        problems.push(`${where}[${i}]: agent ${String(m.agent)} not in agents`);
      if (m.toolCalls && m.role !== 'assistant')
        problems.push(`${where}[${i}]: tool calls in a ${m.role} message`);
      if (m.toolResults && m.role !== 'user')
        problems.push(`${where}[${i}]: tool results in an ${m.role} message`);
      if (!m.text && !m.toolCalls?.length && !m.toolResults?.length)
        problems.push(`${where}[${i}]: empty message`);
      for (const c of m.toolCalls ?? []) {
        if (callAt.has(c.id)) problems.push(`${where}[${i}]: duplicate call id ${c.id}`);
        callAt.set(c.id, i);
      }
      for (const r of m.toolResults ?? []) {
        const at = callAt.get(r.callId);
        if (at !== undefined && at < i && !resultSeen.has(r.callId)) {
          resultSeen.add(r.callId);
          answered++;
        } else unmatched++;
      }
    });
    unanswered += callAt.size - resultSeen.size;
    for (const [callId, child] of Object.entries(t.children ?? {})) {
      if (!callAt.has(callId))
        problems.push(`${where}: child keyed by ${callId}, which is no call of the parent`);
      visit(child, `${where}>${callId}`);
    }
  };
  visit(root, 'root');
  if (stats.orphans !== unanswered + unmatched)
    problems.push(
      `stats.orphans ${stats.orphans} ≠ ${unanswered} unanswered calls + ${unmatched} unmatched results`,
    );
  if (stats.pairedResults !== answered)
    problems.push(`stats.pairedResults ${stats.pairedResults} ≠ ${answered}`);
  return problems;
}
