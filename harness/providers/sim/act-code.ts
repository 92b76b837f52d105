import type { SimEdit } from '../../core/index.ts';
import type { ActContext } from './act-context.ts';
import { leadKey, type Lead } from './act-leads.ts';

/**
 * The acting sim in a writable world (issue 29 item 2, docs/live.md) — offered edit_file, it works as
 * a coding agent over its own copy:
 * - W1 it lists the repository first (tier 1);
 * - W2 each code file (by extension) and README the listing shows → read it (tier 2, followed with
 *   `followRevealedLead` like every revealed lead);
 * - W3 once no lead is left, it makes the recorded session's next file change (`hints.edits`, in the
 *   order recorded) whose file its own calls showed it: a file it read or wrote; a new file (write_file
 *   of a path no result listed) once it read a file the brief names, or any file if the brief names none.
 *   The edits stand in for the reasoning a model would do over that code, as the labels do for claims;
 *   they never choose a read;
 * - W4 after a change, it runs the tests before it reports.
 * None of this applies to a read-only world (no edit_file offered): its behaviour there is unchanged.
 */
export function codeLeads(ctx: ActContext): Lead[] {
  if (!ctx.tools.has('edit_file') || !ctx.tools.has('list_files')) return [];
  const out: Lead[] = [
    lead(1, { name: 'list_files', input: {} }, "Looking at the repository's layout first."),
  ];
  for (const path of listed(ctx))
    if (CODE.test(path) || /(^|\/)readme\.md$/i.test(path))
      out.push(lead(2, { name: 'read_file', input: { path } }, `Reading ${path}.`));
  return out;
}

/** W3/W4: the next change it can make, else the test run its changes are due, else nothing. */
export function nextChange(ctx: ActContext, edits: readonly SimEdit[] | undefined): Lead | undefined {
  if (!ctx.tools.has('edit_file')) return undefined;
  const made = new Set(ctx.history.map((s) => callKey(s.call)));
  const known = knownFiles(ctx);
  const listedPaths = new Set(listed(ctx));
  const briefFiles = [...ctx.brief.matchAll(/\b[\w.-]+(?:\/[\w.-]+)+\.\w+\b/g)].map((m) => m[0]);
  const readAny = ctx.history.some((s) => s.call.name === 'read_file' && !s.isError);
  const mayCreate = briefFiles.length ? briefFiles.some((f) => known.has(f)) : readAny;
  for (const e of edits ?? []) {
    if (made.has(callKey(e))) continue;
    const path = String(e.input.path ?? '');
    const eligible = known.has(path) || (e.name === 'write_file' && !listedPaths.has(path) && mayCreate);
    if (eligible)
      return lead(
        1,
        { name: e.name, input: { ...e.input } },
        `${e.name === 'write_file' ? 'Writing' : 'Changing'} ${path}.`,
      );
  }
  if (!ctx.tools.has('run_tests')) return undefined;
  const last = (names: string[]) =>
    ctx.history.map((s) => s.call.name).findLastIndex((n) => names.includes(n));
  if (last(['edit_file', 'write_file']) > last(['run_tests']))
    return lead(1, { name: 'run_tests', input: {} }, 'Running the tests on the change.');
  return undefined;
}

const CODE = /\.(py|ts|tsx|js|mjs|cjs|go|rs|java|rb)$/;

function lead(tier: Lead['tier'], call: Lead['call'], why: string): Lead {
  return { key: leadKey(call), tier, call, why };
}

/** The paths its list_files results showed, in order. */
function listed(ctx: ActContext): string[] {
  const out = new Set<string>();
  for (const s of ctx.history)
    if (s.call.name === 'list_files' && !s.isError)
      for (const l of s.result.split('\n')) if (l && !l.startsWith('(')) out.add(l.trim());
  return [...out];
}

/** Files whose current text its own calls showed it: read, written, or edited without an error. */
function knownFiles(ctx: ActContext): Set<string> {
  const out = new Set<string>();
  for (const s of ctx.history)
    if (!s.isError && ['read_file', 'write_file', 'edit_file'].includes(s.call.name))
      out.add(String((s.call.input as { path?: unknown }).path ?? ''));
  return out;
}

function callKey(c: { name: string; input?: unknown }): string {
  return `${c.name}\n${JSON.stringify(c.input ?? {})}`;
}

/**
 * What its report says of its own work in a writable world: the files it changed, and the last test
 * run's closing line as printed — both read off its own calls; nothing when it changed nothing.
 */
export function workLines(ctx: ActContext): string[] {
  const changed = [
    ...new Set(
      ctx.history
        .filter((s) => !s.isError && (s.call.name === 'edit_file' || s.call.name === 'write_file'))
        .map((s) => String((s.call.input as { path?: unknown }).path ?? '')),
    ),
  ];
  const run = ctx.history.filter((s) => s.call.name === 'run_tests').pop();
  if (!changed.length && !run) return [];
  const lines = [`Changed: ${changed.join(', ') || 'nothing'}.`];
  if (run) {
    const last =
      run.result
        .split('\n')
        .filter((l) => l.trim())
        .pop()
        ?.trim() ?? '';
    lines.push(
      `Tests after the change (${run.isError ? 'failing' : 'passing'}): ${last.replace(/^=+\s*|\s*=+$/g, '')}`,
    );
  } else lines.push('Tests: not run after the change.');
  return lines;
}
