/**
 * Routes Ctrl-C / SIGTERM to the running command. bin/handoff-eval.js owns the process signal
 * handlers (installed before tsx) and calls the handler in this slot; without the bin (main() called
 * in-process) a plain one-shot process listener is used instead.
 */
const slot = Symbol.for('handoff-eval.interrupt');
type Handler = ((signal: string) => void) & { fired?: boolean };

export function onInterrupt(handler: (signal: string) => void): () => void {
  const g = globalThis as Record<symbol, unknown>;
  if (slot in g) {
    g[slot] = handler as Handler;
    return () => {
      g[slot] = null;
    };
  }
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
