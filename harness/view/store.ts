import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Assertion, Case } from '../core/index.ts';
import { loadRun, runInProgress, type LoadedRun } from '../compare/load-run.ts';
import { loadSuite } from '../../cases/load.ts';
import { renderMessages } from '../../strategies/render.ts';
import { receiverHistory } from '../../strategies/compose.ts';

/** What the viewer knows of a case from the cases folder the run names (absent when it cannot be loaded). */
export interface CaseInfo {
  assertions: Map<string, Assertion>;
  /** The receiver's own history as the row's `seen` renders it ('' without one). */
  historyText: string;
  historyMessages: number;
}

/**
 * The runs of a folder, read from their journals on demand and cached by the journal's size and mtime
 * (a run in progress is re-read as it grows). A folder that is itself a run is a folder of one run.
 */
export class RunStore {
  readonly root: string;
  private cache = new Map<string, { key: string; run: LoadedRun }>();
  private cases = new Map<string, Promise<Map<string, CaseInfo>> | null>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Run directories by run id (the id is the folder name; rows' run_id may differ after a merge). */
  dirs(): Map<string, string> {
    const out = new Map<string, string>();
    if (existsSync(join(this.root, 'results.jsonl'))) out.set(baseName(this.root), this.root);
    else if (existsSync(this.root))
      for (const d of readdirSync(this.root).sort()) {
        const dir = join(this.root, d);
        if (existsSync(join(dir, 'results.jsonl'))) out.set(d, dir);
      }
    return out;
  }

  /** The run by id, or null for an unknown id (ids come from URLs: never joined into a path). */
  get(id: string): LoadedRun | null {
    const dir = this.dirs().get(id);
    if (!dir) return null;
    const st = statSync(join(dir, 'results.jsonl'));
    const key = `${st.size}:${st.mtimeMs}`;
    const hit = this.cache.get(id);
    if (hit && hit.key === key) return { ...hit.run, id, inProgress: runInProgress(dir) };
    const run = { ...loadRun(dir), id };
    this.cache.set(id, { key, run });
    return run;
  }

  /**
   * The cases of a run's suite from the cases folder its config.json names, loaded once per run and
   * suite; null when the run names none or it no longer loads (the viewer then works from rows alone).
   */
  async caseInfo(run: LoadedRun, suite: string): Promise<Map<string, CaseInfo> | null> {
    const dir = typeof run.config?.casesDirResolved === 'string' ? run.config.casesDirResolved : null;
    if (!dir || !existsSync(join(dir, suite, 'suite.json'))) return null;
    const key = `${dir}\u0000${suite}`;
    if (!this.cases.has(key)) this.cases.set(key, loadCaseInfo(join(dir, suite)).catch(() => null) as never);
    return (await this.cases.get(key)) ?? null;
  }
}

const baseName = (p: string) => p.split(/[\\/]/).filter(Boolean).pop() ?? p;

async function loadCaseInfo(dir: string): Promise<Map<string, CaseInfo>> {
  const suite = await loadSuite(dir);
  const out = new Map<string, CaseInfo>();
  for (const c of suite.cases) out.set(c.id, infoOf(c));
  return out;
}

function infoOf(c: Case): CaseInfo {
  const history = receiverHistory({ case: c } as never);
  return {
    assertions: new Map(c.assertions.map((a) => [a.id, a])),
    historyText: history.length ? renderMessages(history).join('\n\n') : '',
    historyMessages: history.length,
  };
}
