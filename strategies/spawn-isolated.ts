import { defineStrategy } from './define.ts';
import { finishHandoff } from './compose.ts';
import { framings } from './framing.ts';

/**
 * Child-context selection `none` — the default: the spawned child sees nothing of its parent. Its
 * task (appended by the runner as the last user message) is all it gets, so the parent's orchestration
 * request cannot become a second assignment (seed: ADR 0071 replaced the full-copy default with this).
 */
export const spawnIsolated = defineStrategy({
  name: 'spawn-isolated',
  description: "Spawned child with isolated context: nothing of the parent's dialogue, only its task.",
  seed: 'child-agent-context-selection: "Omitted or none context isolates the child." / "An isolated default prevents an active parent\'s orchestration request from becoming a second assignment"',
  deterministic: true,
  params: {},
  async prepare(ctx) {
    return finishHandoff(ctx, {
      system: framings.child,
      messages: [],
      payload: '',
      dropped: ctx.case.source.messages.length,
    });
  },
});
