import type { Assertion, Transcript } from '../../harness/core/index.ts';
import type { LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';
import type { Findings, RemarkSlot } from './labels.ts';
import { adapterPath, changelogPath } from './repo.ts';
import { memoryAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { SessionBuilder } from '../lib/session.ts';
import { Random } from '../lib/random.ts';

export const TABLE_COLUMNS = [
  'merchant_id',
  'display_name',
  'adapter',
  'api_version',
  'region',
  'settlement_currency',
  'created_at',
  'updated_at',
];

export function tableRows(w: LedgerWorld): (string | null)[][] {
  return w.merchants.map((m) => [
    m.id,
    m.name,
    m.adapter,
    m.apiVersion,
    m.region,
    m.currency,
    m.createdAt,
    m.updatedAt,
  ]);
}

/**
 * The research child's session over the world: two code searches, the changelog, the table, two
 * adapter reads, one more search (and, when it tries, a read of something it cannot reach), then how
 * merchant_config rows are loaded. Every tool result is what the live tools (harness/live/tools.ts)
 * return over this case's world — the recording keeps its own argument names (`pattern`,
 * `query_table`), the live tools call them `query`. Its remarks in passing (the case's mid-transcript
 * claims) go into the step right after what raised them, each on its own line, and are not repeated at
 * the end.
 */
export function childSession(
  w: LedgerWorld,
  files: Record<string, string>,
  f: Findings,
  brief: string,
  seed: number,
): Transcript {
  const r = new Random('ledgerline-child', seed, w.index);
  const s = new SessionBuilder('researcher', 'child', `toolu_lc${w.index}`, 'large');
  const said = remarks(f);
  s.user(brief, 'parent');
  const { access, recorded, search, read } = childTools(w, files);
  versionAndTable(s, w, said, recorded, search, read);
  adaptersAndLoading(s, w, r, said, search, read);
  s.say(finalMessage(w, f));
  access.close();
  return s.build(`ledgerline-${w.index}-child`);
}

type Said = (slot: RemarkSlot, text: string) => string;
type Step = { name: string; input: Record<string, unknown>; result: string; isError?: boolean };

/** Places the case's remarks: right after what raised them, before the next step's plan (after the table notes). */
function remarks(f: Findings): Said {
  return (slot: RemarkSlot, text: string) => {
    const remarks = f.remarks.filter((m) => m.slot === slot).map((m) => m.text);
    return (slot === 'table' ? [text, ...remarks] : [...remarks, text]).join('\n\n');
  };
}

/** The live world tools over this case's world, and the recorded calls built on them. */
function childTools(w: LedgerWorld, files: Record<string, string>) {
  const access = memoryAccess({
    files,
    tables: { merchant_config: { columns: TABLE_COLUMNS, rows: tableRows(w) } },
  });
  const tools = createWorldTools(access);
  const recorded = (name: string, input: Record<string, unknown>) => {
    const out = tools.run({ name, input });
    return { result: out.content, ...(out.isError ? { isError: true } : {}) };
  };
  const search = (pattern: string, context: number) => ({
    name: 'search_code',
    input: { pattern, path: '.', context },
    ...recorded('search_code', { query: pattern, path: '.', context }),
  });
  const read = (path: string) => ({ name: 'read_file', input: { path }, ...recorded('read_file', { path }) });

  return { access, recorded, search, read };
}

/** Where the retiring version appears, how api_version flows, the changelog, then the table. */
function versionAndTable(
  s: SessionBuilder,
  w: LedgerWorld,
  said: Said,
  recorded: (name: string, input: Record<string, unknown>) => { result: string; isError?: boolean },
  search: (pattern: string, context: number) => Step,
  read: (path: string) => Step,
): void {
  s.act(
    `I'll start by finding every place the retiring version ${RETIRING} appears, then check how api_version flows from the table into requests.`,
    search(RETIRING, 2),
  );
  s.act(
    `${RETIRING} shows up in adapter constants, test fixtures and the vendored changelog. Now the version plumbing: where api_version is read and how each adapter resolves it.`,
    search('api_version|apiVersion|DEFAULT_API_VERSION', 2),
  );
  s.act(
    `The client defaults to ${w.successor} when a row has no api_version, but adapters resolve versions themselves. Let me read the changelog for the exact retirement terms before counting merchants.`,
    read(changelogPath(w)),
  );
  const sql = `SELECT ${TABLE_COLUMNS.join(', ')} FROM merchant_config ORDER BY merchant_id;`;
  s.act(
    said(
      'changelog',
      `Retirement is ${w.retirementDate} with HTTP 410 version_retired afterwards, in test mode too. Now the merchant configuration.`,
    ),
    {
      name: 'query_table',
      input: { sql },
      ...recorded('query', { sql }),
    },
  );
  s.say(said('table', tableNotes(w)));
}

/** The fallback adapter and one more, the other fallbacks, the sandbox pin, how rows are loaded. */
function adaptersAndLoading(
  s: SessionBuilder,
  w: LedgerWorld,
  r: Random,
  said: Said,
  search: (pattern: string, context: number) => Step,
  read: (path: string) => Step,
): void {
  const second = w.decoyAdapter ?? r.pick(w.adapters.filter((a) => a.name !== w.fallbackAdapter)).name;
  s.act(
    `${w.merchants.length} rows. Several use adapter '${w.fallbackAdapter}' with versions that adapter may not support. Reading it and ${second} to see what happens on a negotiation failure.`,
    read(adapterPath(w.fallbackAdapter)),
    read(adapterPath(second)),
  );
  s.act(
    said(
      'adapters',
      `${adapterPath(w.fallbackAdapter)} catches UnsupportedVersionError and silently sends FALLBACK_API_VERSION. Checking for other fallbacks and for how the sandbox adapter and batch jobs pick a version.`,
    ),
    search('FALLBACK_API_VERSION|sandbox|_BATCH_VERSION|edge proxy', 3),
  );
  if (w.sandbox.readable)
    s.act('The sandbox adapter is in the repo; reading its pin.', read('adapters/sandbox.ts'));
  else if (r.chance(0.6))
    s.act(
      'The sandbox adapter is imported from a package. Trying to read its build output.',
      read('node_modules/@ledgerline/sandbox-adapter/dist/index.js'),
    );
  s.act(
    said(
      'last',
      "Last, how merchant_config rows are loaded, to see whether anything overrides a row's version per request.",
    ),
    read('lib/merchant-config.ts'),
  );
}

/** The child's working notes on the table: counts per adapter, before it knows what the adapters do. */
function tableNotes(w: LedgerWorld): string {
  const lines = [...w.adapters.map((a) => a.name), 'sandbox'].map((name) => {
    const rows = w.merchants.filter((m) => m.adapter === name);
    const on = rows.filter((m) => m.apiVersion === RETIRING).length;
    const empty = rows.filter((m) => m.apiVersion === null).length;
    const newest = rows.filter((m) => m.apiVersion === '2025-01').length;
    return `- ${name}: ${rows.length} rows; api_version ${RETIRING}: ${on}, empty: ${empty}, 2025-01: ${newest}`;
  });
  return [
    'Notes on merchant_config before reading the adapters:',
    ...lines,
    `Empty api_version should mean the client default (${w.successor}) per the README, but each adapter resolves the version itself, so rows that are empty or on 2025-01 need checking against the adapter's SUPPORTED_VERSIONS.`,
  ].join('\n');
}

/** The child's report: findings with provenance, then caveats, then coverage — one statement per line. */
export function finalMessage(w: LedgerWorld, f: Findings): string {
  const line = (a: Assertion) => `- ${a.statement}`;
  return [
    `Findings on the ${w.provider.name} ${RETIRING} retirement:`,
    '',
    `How I got there: searched the repo for the version string and for api_version handling, read the vendored changelog, dumped merchant_config (${w.merchants.length} rows), read ${adapterPath(w.fallbackAdapter)} and one more adapter, then searched for fallbacks and for anything that picks a version outside the adapters, and read lib/merchant-config.ts. Sources are given per line as table.column or file:line.`,
    '',
    ...f.confident.map(line),
    '',
    'Caveats:',
    '',
    ...f.caveats.map(line),
    '',
    `Searched: ${f.coverage.searched.join(', ')}.`,
    `Not searched: ${f.coverage.notSearched.join(', ')}.`,
  ].join('\n');
}
