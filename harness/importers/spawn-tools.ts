/**
 * Tool names that spawn a sub-agent, by the formats' own tools: Claude Code's `Task` / `Agent`,
 * Gemini CLI's `delegate_to_agent` (packages/core/src/agents: the model delegates to a named subagent),
 * Codex's `spawn_agent` collab tool, and the generic `spawn*` / `agent*` / `delegate*` names other
 * frameworks use. A call with a recorded child session counts as a spawn whatever its name.
 */
const spawnName = /^(agent|task|spawn|delegate)/i;

export function isSpawnTool(name: string): boolean {
  return spawnName.test(name);
}
