import type { Assertion, Transcript } from '../../harness/core/index.ts';
import type { GroundTruth, LedgerWorld, Merchant } from '../ledgerline/world.ts';
import { RETIRING } from '../ledgerline/world.ts';
import { adapterPath, changelogPath } from '../ledgerline/repo.ts';
import { TABLE_COLUMNS } from '../ledgerline/child.ts';
import { lineOf, renderTable } from '../lib/text.ts';
import { multiRemarks, type MultiRemark } from './spread.ts';
import {
  ASSUME_Q,
  conf,
  HEDGE_Q,
  NONE_SEARCHED,
  qual,
  read,
  report,
  rows,
  search,
  session,
} from './child-session.ts';
import type { ChildOut, Shared } from './child-session.ts';
import { callersChild, docsChild } from './docs-callers.ts';

/**
 * Four research children on overlapping parts of one question (seed: ledgerline, last section).
 * They overlap (all search the repo), contradict each other in two places — a live table vs a
 * nightly snapshot, and a child that only saw the harmless fallback — and none of them looked at
 * the provider's webhook-endpoint versions or the infra repository.
 */
export { NONE_SEARCHED, type ChildOut, type Shared } from './child-session.ts';

export function buildChildren(sh: Shared, idPrefix: string): ChildOut[] {
  const remarks = multiRemarks();
  const out = [
    tableChild(sh, idPrefix, remarks),
    snapshotChild(sh, idPrefix, remarks),
    docsChild(sh, idPrefix, remarks),
    callersChild(sh, idPrefix, remarks),
  ];
  return out.map((c, i) => ({
    ...c,
    assertions: [
      ...c.assertions.map((a) => ({ ...a, location: 'final_message' as const })),
      ...remarks
        .filter((r) => r.child === (['config', 'adapters', 'changelog', 'callers'] as const)[i])
        .map((r) => r.assertion),
    ],
  }));
}

function tableChild({ w, t, files }: Shared, p: string, remarks: readonly MultiRemark[]): ChildOut {
  const s = session(
    'config',
    p,
    `Count the merchants pinned to ${RETIRING} in merchant_config and check how the column is used.`,
    remarks,
  );
  s.act('Starting with every mention of the version.', search(files, RETIRING, 2));
  s.act('Now the live table.', {
    name: 'query_table',
    input: { sql: `SELECT ${TABLE_COLUMNS.join(', ')} FROM merchant_config ORDER BY merchant_id;` },
    result: renderTable(TABLE_COLUMNS, rows(w.merchants)),
  });
  s.act('And how api_version is read.', search(files, 'api_version|apiVersion', 2));
  s.act('The changelog for the terms.', read(files, changelogPath(w)));
  s.act(
    'Two adapters to see how the pin is sent.',
    read(files, adapterPath(w.adapters[0]!.name)),
    read(files, 'lib/merchant-config.ts'),
  );
  s.act('One broad pass over version handling before writing up.', search(files, '[Vv]ersion', 0));
  const found = [
    conf(
      'c1-direct',
      `${t.direct.length} merchants pin 2023-10 in the live merchant_config table (merchant_config.api_version): ${t.direct.join(', ')}.`,
      [`${t.direct.length} merchants`, 'live merchant_config'],
      ['merchant_config.api_version'],
    ),
  ];
  const caveats = [
    qual(
      'c1-assume',
      'assumption',
      'Assuming the api_version column is authoritative and not overridden per request.',
      'the api_version column is authoritative and not overridden per request',
      ['api_version column', 'authoritative'],
      ASSUME_Q,
    ),
  ];
  const notSearched = [...NONE_SEARCHED, 'jobs/ and scripts/', 'adapter fallback paths'];
  report(
    s,
    'merchant_config findings:',
    found,
    caveats,
    ['merchant_config (live)', 'the repo for 2023-10 and api_version', 'the changelog'],
    notSearched,
  );
  return { transcript: s.build(`${p}-config`), assertions: [...found, ...caveats], notSearched };
}

function snapshotChild(sh: Shared, p: string, remarks: readonly MultiRemark[]): ChildOut {
  const { w, files, snapshot } = sh;
  const s = session(
    'adapters',
    p,
    `Go through the adapters: how each resolves the ${w.provider.name} version, any fallback or default path, and which merchants that affects.`,
    remarks,
  );
  const fb = adapterPath(w.fallbackAdapter);
  const line = lineOf(files[fb]!, 'version = FALLBACK_API_VERSION;');
  const snapDirect = snapshot.filter((m) => m.apiVersion === RETIRING).map((m) => m.id);
  s.act(
    'Finding version handling across adapters.',
    search(files, 'FALLBACK_API_VERSION|SUPPORTED_VERSIONS|DEFAULT_API_VERSION', 3),
  );
  s.act(`Reading ${fb} and the registry.`, read(files, fb), read(files, 'adapters/index.ts'));
  s.act(
    'The analytics snapshot of merchant_config (I have read access to the warehouse, not to production).',
    {
      name: 'query_table',
      input: {
        sql: `SELECT ${TABLE_COLUMNS.join(', ')} FROM merchant_config_snapshot ORDER BY merchant_id;`,
      },
      result: renderTable(TABLE_COLUMNS, rows(snapshot)),
    },
  );
  s.act(
    'Every api_version use, to be sure nothing else resolves versions.',
    search(files, 'api_version|apiVersion', 2),
  );
  s.act(
    'Last, the other adapters.',
    ...w.adapters
      .filter((a) => a.name !== w.fallbackAdapter)
      .slice(0, 2)
      .map((a) => read(files, adapterPath(a.name))),
  );
  s.act('A broad pass for anything version-related I missed.', search(files, '[Vv]ersion', 0));
  const { found, caveats } = snapshotClaims(sh, snapDirect, fb, line);
  const notSearched = [...NONE_SEARCHED, 'the live merchant_config table', 'the changelog'];
  report(
    s,
    'Adapter findings:',
    found,
    caveats,
    ['adapters/', 'merchant_config_snapshot', 'api_version uses'],
    notSearched,
  );
  return { transcript: s.build(`${p}-adapters`), assertions: [...found, ...caveats], notSearched };
}

/** The adapters child's findings (from the snapshot, so stale for today's upgrades) and its hedge. */
function snapshotClaims({ t }: Shared, snapDirect: string[], fb: string, line: number) {
  const found = [
    conf(
      'c2-direct',
      `${snapDirect.length} merchants pin 2023-10 according to merchant_config_snapshot: ${snapDirect.join(', ')}.`,
      [`${snapDirect.length} merchants`, 'merchant_config_snapshot'],
      ['merchant_config_snapshot.api_version'],
    ),
    conf(
      'c2-indirect',
      `${t.indirect.length} more merchants reach 2023-10 indirectly: ${fb} silently sends FALLBACK_API_VERSION = '2023-10' when the pinned version is missing or unsupported (${fb}:${line}): ${t.indirect.join(', ')}.`,
      ['indirectly', fb],
      [`${fb}:${line}`],
    ),
  ];
  const caveats = [
    qual(
      'c2-snapshot',
      'hedged',
      'I could not determine whether the snapshot matches the live table; it is refreshed nightly.',
      'the snapshot matches the live table',
      ['snapshot matches the live table'],
      HEDGE_Q,
    ),
  ];
  return { found, caveats };
}
