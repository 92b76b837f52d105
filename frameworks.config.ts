import { defineConfig, frameworks } from 'handoff-eval';
import base from './eval.config.ts';

/**
 * What the agent frameworks hand over (README, "What frameworks hand over"): the default experiment's
 * settings on the two suites whose claims carry kind and location labels — ledgerline (a research child
 * returning to its parent) and milk (a primary escalating) — each with its baseline and the framework
 * arms that apply to its direction (`frameworks()`). `npx handoff-eval run --config frameworks.config.ts`.
 */
export default defineConfig({
  ...base,
  gate: undefined,
  suites: [
    { id: 'ledgerline', arms: ['inline', frameworks()] },
    { id: 'milk', arms: ['milk-auto', frameworks()] },
  ],
});
