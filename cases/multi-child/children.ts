import type { Assertion, Transcript } from '../../harness/core/index.ts';
import type { GroundTruth, LedgerWorld, Merchant } from '../ledgerline/world.ts';
import { RETIRING } from '../ledgerline/world.ts';
import { adapterPath, changelogPath } from '../ledgerline/repo.ts';
import { TABLE_COLUMNS } from '../ledgerline/child.ts';
import { lineOf, renderTable } from '../lib/text.ts';
import { multiRemarks, type MultiRemark } from './spread.ts';
import { ASSUME_Q, conf, HEDGE_Q, qual, read, report, rows, search, session } from './child-session.ts';

/**
 * Four research children on overlapping parts of one question (seed: ledgerline, last section).
 * They overlap (all search the repo), contradict each other in two places — a live table vs a
 * nightly snapshot, and a child that only saw the harmless fallback — and none of them looked at
 * the provider's webhook-endpoint versions or the infra repository.
 */
export interface ChildOut {
  transcript: Transcript;
  assertions: Assertion[];
  notSearched: string[];
}

export interface Shared {
  w: LedgerWorld;
  t: GroundTruth;
  files: Record<string, string>;
  /** Rows as of last night: merchants upgraded today still show 2023-10 there. */
  snapshot: Merchant[];
  upgradedToday: string[];
}

export const NONE_SEARCHED = ['webhook endpoint versions in the provider dashboard', 'the infra repository'];
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

function snapshotChild(
  { w, t, files, snapshot }: Shared,
  p: string,
  remarks: readonly MultiRemark[],
): ChildOut {
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
        sql: `SELECT ${TABLE_COLUMNS.join(', ')} FROM analytics.merchant_config_snapshot ORDER BY merchant_id;`,
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
  const found = [
    conf(
      'c2-direct',
      `${snapDirect.length} merchants pin 2023-10 according to analytics.merchant_config_snapshot: ${snapDirect.join(', ')}.`,
      [`${snapDirect.length} merchants`, 'merchant_config_snapshot'],
      ['analytics.merchant_config_snapshot.api_version'],
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
  const notSearched = [...NONE_SEARCHED, 'the live merchant_config table', 'the changelog'];
  report(
    s,
    'Adapter findings:',
    found,
    caveats,
    ['adapters/', 'analytics.merchant_config_snapshot', 'api_version uses'],
    notSearched,
  );
  return { transcript: s.build(`${p}-adapters`), assertions: [...found, ...caveats], notSearched };
}

function docsChild({ w, files }: Shared, p: string, remarks: readonly MultiRemark[]): ChildOut {
  const s = session(
    'changelog',
    p,
    `Read the ${w.provider.name} changelog and anything about the sandbox: exact retirement terms, grace period, and whether test-mode merchants are affected.`,
    remarks,
  );
  const cl = changelogPath(w);
  const clLine = lineOf(files[cl]!, `will be retired on ${w.retirementDate}`);
  s.act('The vendored changelog first.', read(files, cl));
  s.act('Where the sandbox is handled.', search(files, 'sandbox|Sandbox', 3));
  s.act('Everything mentioning the version.', search(files, RETIRING, 2));
  s.act(
    'The registry and the client.',
    read(files, 'adapters/index.ts'),
    read(files, `lib/${w.provider.slug}/client.ts`),
  );
  s.act('Version handling in general.', search(files, 'api_version|apiVersion', 2));
  if (!w.sandbox.readable)
    s.act(
      'Trying the sandbox package.',
      read(files, 'node_modules/@ledgerline/sandbox-adapter/dist/index.js'),
    );
  else s.act('Reading the sandbox adapter.', read(files, 'adapters/sandbox.ts'));
  s.act('A broad pass over version mentions.', search(files, '[Vv]ersion', 0));
  const found = [
    conf(
      'c3-date',
      `${w.provider.name} retires API version 2023-10 on ${w.retirementDate}; requests pinned to it then fail with HTTP 410 version_retired (${cl}:${clLine}).`,
      [w.retirementDate, 'http 410'],
      [`${cl}:${clLine}`],
    ),
  ];
  const caveats = [
    qual(
      'c3-grace',
      'unresolved',
      `Unresolved: whether any grace period applies after ${w.retirementDate}; the changelog does not promise one. Would settle it: the provider's account manager.`,
      `a grace period applies after ${w.retirementDate}`,
      ['grace period applies'],
      ['unresolved', 'would settle it', 'open question'],
    ),
    ...(w.sandbox.readable
      ? []
      : [
          qual(
            'c3-sandbox',
            'hedged',
            'I could not determine whether the sandbox adapter uses the same version pin; it comes from @ledgerline/sandbox-adapter, which is not vendored.',
            'the sandbox adapter uses the same version pin',
            ['sandbox adapter', 'version pin'],
            HEDGE_Q,
          ),
        ]),
  ];
  const notSearched = [...NONE_SEARCHED, 'merchant_config'];
  report(
    s,
    'Changelog and sandbox findings:',
    found,
    caveats,
    ['the changelog', 'sandbox handling', 'adapters/index.ts', 'the client'],
    notSearched,
  );
  return { transcript: s.build(`${p}-changelog`), assertions: [...found, ...caveats], notSearched };
}

function callersChild({ w, files }: Shared, p: string, remarks: readonly MultiRemark[]): ChildOut {
  const s = session(
    'callers',
    p,
    `Find anything outside the adapters that calls ${w.provider.name} or picks a version (jobs, scripts, webhooks, proxies), and check the adapters' fallback behaviour.`,
    remarks,
  );
  const other = w.decoyAdapter ?? w.adapters.find((a) => a.name !== w.fallbackAdapter)!.name;
  s.act('Searching for direct client use outside adapters.', search(files, 'client\\.request|Client\\(', 3));
  s.act('Version selection anywhere.', search(files, 'BATCH_VERSION|DEFAULT_API_VERSION|version:', 2));
  s.act(
    'Jobs, scripts and webhooks.',
    read(files, 'webhooks/handler.ts'),
    read(files, 'scripts/backfill-api-version.ts'),
    ...(files['jobs/settlement.ts'] ? [read(files, 'jobs/settlement.ts')] : []),
  );
  s.act(`Checking one adapter's error path for a fallback: ${other}.`, read(files, adapterPath(other)));
  s.act('Every mention of the retiring version.', search(files, RETIRING, 2));
  s.act('And the api_version plumbing.', search(files, 'api_version|apiVersion', 2));
  s.act('A broad pass over version mentions.', search(files, '[Vv]ersion', 0));
  const wrong = w.decoyAdapter
    ? conf(
        'c4-fallback',
        `The only version fallback I found is in ${adapterPath(other)} and it pins 2024-09, so no merchant reaches 2023-10 through a fallback (${adapterPath(other)}).`,
        ['only version fallback', 'no merchant reaches 2023-10'],
        [adapterPath(other)],
      )
    : conf(
        'c4-fallback',
        `Adapters throw UnsupportedVersionError instead of falling back (${adapterPath(other)}), so no merchant reaches 2023-10 through a fallback.`,
        ['instead of falling back', 'no merchant reaches 2023-10'],
        [adapterPath(other)],
      );
  const caveats = w.batchJob
    ? [
        qual(
          'c4-batch',
          'hedged',
          `I could not determine whether the nightly settlement job sends 2023-10: it reads ${w.provider.envPrefix}_BATCH_VERSION from the deploy environment.`,
          'the nightly settlement job sends 2023-10',
          ['settlement job', 'sends 2023-10'],
          HEDGE_Q,
        ),
      ]
    : [
        qual(
          'c4-webhooks',
          'assumption',
          'Assuming webhook handling does not depend on the pinned version; events carry their own api_version.',
          'webhook handling does not depend on the pinned version',
          ['webhook handling does not depend on the pinned version'],
          ASSUME_Q,
        ),
      ];
  const notSearched = [...NONE_SEARCHED, 'merchant_config', `adapters other than ${other}`];
  report(
    s,
    'Callers outside the adapters:',
    [wrong],
    caveats,
    ['webhooks/', 'scripts/', 'jobs/', `adapters/${other}.ts`],
    notSearched,
  );
  return { transcript: s.build(`${p}-callers`), assertions: [wrong, ...caveats], notSearched };
}
