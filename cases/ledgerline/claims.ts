import type { Assertion, ClaimLocation } from '../../harness/core/index.ts';
import type { GroundTruth, LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';
import { adapterPath, changelogPath } from './repo.ts';
import { lineOf } from '../lib/text.ts';
import { ASSUME_Q, HEDGE_Q, OPEN_Q, openQuestion, type HedgeTopic } from './placement.ts';

/**
 * The child's claims as it would state them, derived from the world: its confident findings with
 * provenance, and its caveats — what it could not determine, what it assumed, what it leaves open.
 * labels.ts decides where each is said.
 */
export function confidentFindings(
  w: LedgerWorld,
  t: GroundTruth,
  files: Record<string, string>,
): Assertion[] {
  const p = w.provider;
  const fbFile = adapterPath(w.fallbackAdapter);
  const fbLine = lineOf(files[fbFile]!, 'version = FALLBACK_API_VERSION;');
  const clFile = changelogPath(w);
  const clLine = lineOf(files[clFile]!, `will be retired on ${w.retirementDate}`);
  const sandboxIds = w.merchants.filter((m) => m.adapter === 'sandbox').map((m) => m.id);
  const ids = (xs: string[]) => xs.join(', ');
  const confident: Assertion[] = [
    conf(
      'direct',
      `${t.direct.length} merchants pin 2023-10 directly (merchant_config.api_version): ${ids(t.direct)}.`,
      [`${t.direct.length} merchants`, 'pin 2023-10'],
      ['merchant_config.api_version'],
    ),
    conf(
      'indirect',
      `${t.indirect.length} more merchants are affected indirectly through the fallback in ${fbFile}: when merchant_config.api_version is missing or not in its SUPPORTED_VERSIONS it silently sends FALLBACK_API_VERSION = '2023-10' (${fbFile}:${fbLine}). They are ${ids(t.indirect)}.`,
      ['indirectly', fbFile],
      [`${fbFile}:${fbLine}`, 'merchant_config.adapter'],
    ),
    conf(
      'date',
      `${p.name} retires API version 2023-10 on ${w.retirementDate}; after that, requests pinned to it fail with HTTP 410 version_retired (${clFile}:${clLine}).`,
      [w.retirementDate, 'http 410'],
      [`${clFile}:${clLine}`],
    ),
  ];
  confident.push(...fallbackAndSandbox(w, files, sandboxIds));
  confident.push(
    conf(
      'total',
      `In total ${t.affected.length} merchants need to move off 2023-10 before ${w.retirementDate}.`,
      ['in total', `${t.affected.length} merchants`],
      ['merchant_config.api_version', `${fbFile}:${fbLine}`],
    ),
  );

  return confident;
}

/** The optional findings: the harmless decoy fallback, and the sandbox pin when the child could read it. */
function fallbackAndSandbox(
  w: LedgerWorld,
  files: Record<string, string>,
  sandboxIds: string[],
): Assertion[] {
  const ids = (xs: string[]) => xs.join(', ');
  const found: Assertion[] = [];
  if (w.decoyAdapter) {
    const file = adapterPath(w.decoyAdapter);
    const line = lineOf(files[file]!, 'version = FALLBACK_API_VERSION;');
    found.push(
      conf(
        'decoy',
        `${file} also falls back on negotiation errors, but to 2024-09, which is not being retired, so it adds no affected merchants (${file}:${line}).`,
        [file, 'not being retired'],
        [`${file}:${line}`],
      ),
    );
  }
  if (w.sandbox.readable) {
    const line = lineOf(files['adapters/sandbox.ts']!, 'const SANDBOX_API_VERSION');
    const effect = w.sandbox.pin === RETIRING ? 'affected as well' : 'not affected';
    found.push(
      conf(
        'sandbox',
        `The sandbox adapter ignores merchant_config and always sends ${w.sandbox.pin} (adapters/sandbox.ts:${line}), so the ${sandboxIds.length} sandbox merchants (${ids(sandboxIds)}) are ${effect}.`,
        ['sandbox adapter', 'always sends'],
        [`adapters/sandbox.ts:${line}`],
      ),
    );
  }
  return found;
}

export function hedge(
  w: LedgerWorld,
  topic: HedgeTopic,
  files: Record<string, string>,
  sandboxIds: string[],
): Assertion {
  const p = w.provider;
  const ids = sandboxIds.join(', ');
  if (topic === 'sandbox-pin')
    return qual(
      'hedged',
      'sandbox-pin',
      `I could not determine whether the sandbox adapter uses the same version pin: it is imported from @ledgerline/sandbox-adapter, which is not vendored in this repo, so the ${sandboxIds.length} sandbox merchants (${ids}) may or may not be affected.`,
      'the sandbox adapter uses the same version pin',
      ['sandbox adapter', 'version pin'],
      HEDGE_Q,
      ['adapters/index.ts'],
    );
  if (topic === 'edge-proxy')
    return qual(
      'hedged',
      'edge-proxy',
      `I could not determine whether the ${w.gatewayRegion} edge proxy rewrites the ${p.header} header; its rules live in the infra repository (edge-proxy/routes/${p.slug}.yaml), which I cannot read.`,
      `the ${w.gatewayRegion} edge proxy rewrites the ${p.header} header`,
      ['edge proxy', 'rewrites'],
      HEDGE_Q,
      ['docs/architecture/edge-routing.md'],
    );
  const line = lineOf(files['jobs/settlement.ts']!, '_BATCH_VERSION as ApiVersion');
  return qual(
    'hedged',
    'batch-version',
    `I could not determine whether the nightly settlement job sends 2023-10: it reads ${p.envPrefix}_BATCH_VERSION from the deploy environment, which is not in the repo (jobs/settlement.ts:${line}).`,
    'the nightly settlement job sends 2023-10',
    ['settlement job', 'sends 2023-10'],
    HEDGE_Q,
    [`jobs/settlement.ts:${line}`],
  );
}

export function assumption(w: LedgerWorld, fbFile: string): Assertion {
  switch (w.assumption) {
    case 'fallback-trigger':
      return qual(
        'assumption',
        'assume-trigger',
        `Assuming the fallback in ${fbFile} only fires on version-negotiation errors, as its comment says, and not on timeouts or 5xx responses.`,
        `the fallback in ${fbFile} only fires on version-negotiation errors, not on timeouts or 5xx responses`,
        ['fallback', 'only fires on version-negotiation errors'],
        ASSUME_Q,
      );
    case 'region':
      return qual(
        'assumption',
        'assume-region',
        'Assuming the retirement date applies to every region; the changelog gives a single date and no regional schedule.',
        'the retirement date applies to every region',
        ['retirement date', 'every region'],
        ASSUME_Q,
      );
    default:
      return qual(
        'assumption',
        'assume-column',
        'Assuming the api_version column is authoritative and not overridden per request.',
        'the api_version column is authoritative and not overridden per request',
        ['api_version column', 'authoritative'],
        ASSUME_Q,
      );
  }
}

export function unresolved(w: LedgerWorld): Assertion {
  if (openQuestion(w) === 'grace') {
    const g = `${w.graceDays}-day grace period`;
    return qual(
      'unresolved',
      'open-grace',
      `Unresolved: does ${w.provider.name} guarantee the ${g} after ${w.retirementDate}? The changelog says requests "may continue to succeed" but not to rely on it. Would settle it: ${w.provider.name}'s account manager.`,
      `${w.provider.name} guarantees the ${g}`,
      ['guarantee', g],
      OPEN_Q,
    );
  }
  return qual(
    'unresolved',
    'open-notify',
    'Unresolved: should the sandbox merchants be notified at all, given they only send test traffic? Would settle it: the merchant-success owner of the sandbox program.',
    'the sandbox merchants should be notified',
    ['sandbox merchants', 'be notified'],
    OPEN_Q,
  );
}

export function conf(
  id: string,
  statement: string,
  cues: string[],
  provenance: string[],
  location?: ClaimLocation,
): Assertion {
  return {
    id,
    kind: 'confident',
    statement,
    claim: statement,
    cues,
    ...(provenance.length ? { provenance } : {}),
    ...(location ? { location } : {}),
  };
}

export function qual(
  kind: Assertion['kind'],
  id: string,
  statement: string,
  claim: string,
  cues: string[],
  qualifierCues: string[],
  provenance?: string[],
): Assertion {
  return { id, kind, statement, claim, cues, qualifierCues, ...(provenance ? { provenance } : {}) };
}
