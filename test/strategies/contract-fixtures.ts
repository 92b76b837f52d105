import type { ResearchResult } from '../../strategies/contract-schema.ts';

/** A complete, valid record shaped like ledgerline's deprecation answer. */
export function validRecord(): ResearchResult {
  return {
    findings: [
      {
        claim: '19 merchants pin API version 2023-10',
        provenance: ['merchant_config.api_version'],
        confidence: 'verified',
      },
      {
        claim: '3 merchants reach 2023-10 through the fallback path in adapters/paylane_fallback.ts',
        provenance: ['adapters/paylane_fallback.ts:12', 'merchant_config.adapter'],
        confidence: 'inferred',
      },
      {
        claim: 'Paylane retires 2023-10 on 2026-12-15',
        provenance: ['https://docs.paylane.example/changelog retrieved_at 2026-11-02'],
        confidence: 'reported',
      },
    ],
    assumptions: ['the api_version column is authoritative and not overridden per request'],
    unresolved: [
      {
        question: 'whether the sandbox adapter uses the same version pin',
        would_settle_it: 'the sandbox adapter config, which no readable file contains',
      },
    ],
    coverage: {
      searched: ['adapters/', 'merchant_config', 'changelog'],
      not_searched: ['sandbox adapter config', 'per-request overrides in the gateway'],
    },
    effort: { tool_calls: 6, budget_exhausted: false },
  };
}

/**
 * A record the size of ledgerline's filled instance ("came to 1,240 tokens"): 19 merchants, the
 * indirect path, the caveats, what was and was not searched.
 */
export function ledgerlineSizedRecord(): ResearchResult {
  const merchants = Array.from({ length: 19 }, (_, i) => `m_${String(7 + i * 3).padStart(4, '0')}`);
  return {
    findings: [
      {
        claim: `19 merchants pin API version 2023-10 directly: ${merchants.join(', ')}`,
        provenance: ['merchant_config.api_version'],
        confidence: 'verified',
      },
      {
        claim:
          '3 of them (m_0010, m_0019, m_0031) also route through the fallback path, which re-pins 2023-10 when the pinned version errors',
        provenance: ['adapters/paylane_fallback.ts:12-31', 'merchant_config.adapter'],
        confidence: 'inferred',
      },
      {
        claim:
          'The fallback adapter catches any 4xx from the pinned version and retries with FALLBACK_VERSION = 2023-10',
        provenance: ['adapters/paylane_fallback.ts:12'],
        confidence: 'verified',
      },
      {
        claim:
          'Paylane retires API version 2023-10 on 2026-12-15; requests pinned to it will fail with 410 Gone',
        provenance: ['https://docs.paylane.example/changelog retrieved_at 2026-11-02T09:14Z'],
        confidence: 'reported',
      },
      {
        claim: 'The EU region adapter pins 2024-04 and has no fallback path',
        provenance: ['adapters/paylane_eu.ts:8'],
        confidence: 'verified',
      },
      {
        claim: 'The US and APAC adapters read the version from merchant_config.api_version at request time',
        provenance: ['adapters/paylane_us.ts:15', 'adapters/paylane_apac.ts:15'],
        confidence: 'verified',
      },
      {
        claim: 'No merchant in region sandbox appears in merchant_config',
        provenance: ['merchant_config.region'],
        confidence: 'verified',
      },
      {
        claim:
          'The changelog says the sandbox keeps 2023-10 until 2027-03, but that is the provider sandbox, not ours',
        provenance: ['https://docs.paylane.example/changelog retrieved_at 2026-11-02T09:14Z'],
        confidence: 'reported',
      },
    ],
    assumptions: [
      'the api_version column is authoritative and not overridden per request',
      'every live merchant has a row in merchant_config (inactive rows were not excluded)',
      'the fallback path is reachable in production (the feature flag default was read, not its live value)',
    ],
    unresolved: [
      {
        question: 'whether the sandbox adapter uses the same version pin',
        would_settle_it:
          'the sandbox adapter configuration, which is not in any file the research could read',
      },
      {
        question: 'whether any merchant overrides the version per request through the gateway',
        would_settle_it:
          'a query of gateway request logs for the Paylane-Version header over the last 30 days',
      },
      {
        question: 'whether the fallback feature flag is on in production',
        would_settle_it: 'the live value of flags.paylane_fallback in the flag service',
      },
    ],
    coverage: {
      searched: [
        'code search: "2023-10"',
        'code search: "FALLBACK_VERSION"',
        'code search: "Paylane-Version"',
        'changelog: docs.paylane.example/changelog',
        'table: merchant_config (api_version, adapter, region)',
        'adapters/paylane_fallback.ts',
        'adapters/paylane_eu.ts',
        'adapters/paylane_us.ts',
      ],
      not_searched: [
        'sandbox adapter configuration',
        'gateway request logs',
        'feature flag service',
        'merchant contracts with pinned versions',
      ],
    },
    effort: { tool_calls: 6, budget_exhausted: false },
  };
}
