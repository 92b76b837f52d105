import { RETIRING } from '../ledgerline/world.ts';
import { adapterPath, changelogPath } from '../ledgerline/repo.ts';
import { lineOf } from '../lib/text.ts';
import type { MultiRemark } from './spread.ts';
import {
  ASSUME_Q,
  conf,
  HEDGE_Q,
  NONE_SEARCHED,
  qual,
  read,
  report,
  search,
  session,
} from './child-session.ts';
import type { ChildOut, Shared } from './child-session.ts';

/** Two of the four research children (children.ts): the changelog-and-sandbox reader and the callers search. */

export function docsChild({ w, files }: Shared, p: string, remarks: readonly MultiRemark[]): ChildOut {
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
  const caveats = docsCaveats(w);
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

export function callersChild({ w, files }: Shared, p: string, remarks: readonly MultiRemark[]): ChildOut {
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
  const { wrong, caveats } = callersClaims(w, other);
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

/** The changelog child's open points: the grace period, and the sandbox pin when it cannot read it. */
function docsCaveats(w: Shared['w']) {
  return [
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
}

/** The callers child's wrong finding (it saw only a harmless fallback or none) and its caveat. */
function callersClaims(w: Shared['w'], other: string) {
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
  return { wrong, caveats };
}
