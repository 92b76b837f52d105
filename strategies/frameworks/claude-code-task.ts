import type { Transcript } from '../../harness/core/index.ts';
import { messagesTokens } from '../../harness/core/tokens.ts';
import { allTrailItems } from '../../harness/core/transcript/view.ts';
import { createHash } from 'node:crypto';
import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { endedSessions, framingFor, lastMessageText } from './shared.ts';
import { asToolResults } from './tool-return.ts';

/**
 * Claude Code's Task/Agent tool result as recorded in real sessions: the sub-agent's final text, then
 * (v2) a trailer block — `agentId: <id> (use SendMessage with to: '<id>' to continue this agent)`,
 * `worktreePath:` / `worktreeBranch:` lines for a worktree-isolated agent, and
 * `<usage>total_tokens: N\ntool_uses: N\nduration_ms: N</usage>`. Text blocks of one result are
 * joined with a line break, as the importer reads them. One result per Agent call when several
 * children run. `version: 'v1'` is the older Task tool, whose result is the final text alone.
 *
 * Source: the recorded sessions themselves (Claude Code is not open source) —
 * test/fixtures/transcripts/claude-code-v2-teammates (Claude Code 2.1.114: six Agent results, each
 * `[text, trailer]`) and claude-code-nextjs-todo.jsonl (v1 Task results, text only); FORMATS.md
 * "Subagents". The numbers come from the child session: its agentId and worktreePath (the v2.1
 * `.meta.json`), tool_uses = its tool calls (the recorded counts match), total_tokens = its recorded
 * total when the importer kept one, else the o200k count of its messages (an estimate; Claude Code
 * reports the API's usage), duration_ms = its recorded duration, else 0 (sessions do not carry it).
 * A child without an agentId gets a stable one from its id ('a' + 16 hex digits, Claude Code's shape).
 */
export const claudeCodeTask = defineStrategy({
  name: 'claude-code-task',
  description:
    "Claude Code's Agent/Task tool result: the child's final text plus its agentId/<usage> trailer.",
  seed: 'framework: Claude Code 2.1.114 Agent tool results as recorded (test/fixtures/transcripts/claude-code-v2-teammates; v1 Task: claude-code-nextjs-todo)',
  deterministic: true,
  params: {
    version: {
      type: 'enum',
      values: ['v2', 'v1'],
      default: 'v2',
      description:
        "'v2': final text + agentId/usage trailer (Agent tool, 2.x); 'v1': final text only (Task tool)",
    },
  },
  async prepare(ctx, params) {
    const sources = endedSessions(ctx);
    const results = sources.map((s) =>
      params.version === 'v1' ? lastMessageText(s) : `${lastMessageText(s)}\n${trailer(s)}`,
    );
    const messages = asToolResults(ctx, results, () => (params.version === 'v1' ? 'Task' : 'Agent'));
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages,
      payload: results.join('\n\n'),
      retained: sources.length,
      dropped: sources.reduce((n, s) => n + s.messages.length, 0) - sources.length,
    });
  },
});

/** The v2 trailer block of one child's result. */
export function trailer(child: Transcript): string {
  const meta = child.meta ?? {};
  const id = typeof meta.agentId === 'string' && meta.agentId ? meta.agentId : stableAgentId(child);
  const lines = [`agentId: ${id} (use SendMessage with to: '${id}' to continue this agent)`];
  if (typeof meta.worktreePath === 'string') {
    lines.push(`worktreePath: ${meta.worktreePath}`);
    lines.push(
      `worktreeBranch: ${typeof meta.worktreeBranch === 'string' ? meta.worktreeBranch : `worktree-agent-${id.slice(0, 8)}`}`,
    );
  }
  const tokens = numberOr(meta.totalTokens, () => messagesTokens(child.messages));
  const duration = numberOr(meta.totalDurationMs, () => 0);
  lines.push(
    `<usage>total_tokens: ${tokens}\ntool_uses: ${allTrailItems(child).length}\nduration_ms: ${duration}</usage>`,
  );
  return lines.join('\n');
}

function numberOr(v: unknown, fallback: () => number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback();
}

function stableAgentId(child: Transcript): string {
  const seed = child.id ?? JSON.stringify(child.messages.slice(0, 1));
  return `a${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;
}
