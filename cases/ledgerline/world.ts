import { Random } from '../lib/random.ts';
import { adapterPool, nameA, nameB, providers, regions, requesters } from './world-pools.ts';
import type { AdapterSpec, Provider } from './world-pools.ts';

export type { AdapterSpec, Provider } from './world-pools.ts';

/**
 * The ledgerline world (DESIGN §2): an upstream payments provider retires API version 2023-10;
 * merchants pin versions in merchant_config; adapters talk to the provider, one of them silently
 * falling back to a pinned 2023-10 when version negotiation fails. Everything a case says — the
 * child's tool results, its findings, the reference — is derived from this one seeded object.
 */

export const RETIRING = '2023-10';
export const VERSIONS = ['2023-10', '2024-04', '2024-09', '2025-01'] as const;

export interface Merchant {
  id: string;
  name: string;
  adapter: string;
  apiVersion: string | null;
  region: string;
  currency: string;
  createdAt: string;
  updatedAt: string;
}

export interface LedgerWorld {
  index: number;
  provider: Provider;
  successor: string;
  retirementDate: string;
  announcedDate: string;
  graceDays: number;
  adapters: AdapterSpec[];
  /** The adapter whose fallback pins the retiring version (the indirect path). */
  fallbackAdapter: string;
  /** An adapter with a harmless fallback to a version that is not retiring (a red herring). */
  decoyAdapter?: string;
  /** Sandbox merchants use a sandbox adapter; readable = its source is in the repo. */
  sandbox: { readable: boolean; pin: string };
  /** A region routed through an edge proxy whose rules live outside the repo. */
  gatewayRegion?: string;
  /** A nightly settlement job reading its version from the deploy environment. */
  batchJob: boolean;
  merchants: Merchant[];
  assumption: 'column' | 'fallback-trigger' | 'region';
  unresolved?: 'notify-sandbox' | 'grace';
  ticket: { number: number; merchantId: string; requester: string };
}

export interface GroundTruth {
  /** merchant_config.api_version = 2023-10. */
  direct: string[];
  /** Reach 2023-10 through the fallback adapter (version missing or unsupported there). */
  indirect: string[];
  /** Sandbox merchants when the sandbox adapter is readable and pins 2023-10. */
  sandboxPinned: string[];
  /** Sandbox merchants whose effective version cannot be known from the repo. */
  unknown: string[];
  affected: string[];
}

export function createWorld(seed: number, index: number): LedgerWorld {
  const r = new Random('ledgerline', seed, index);
  const provider = r.pick(providers);
  const adapterCount = r.int(3, 5);
  const chosen = r.sample(adapterPool, adapterCount);
  const fallbackAdapter = r.pick(chosen).name;
  const others = chosen.filter((a) => a.name !== fallbackAdapter);
  const decoyAdapter = r.chance(0.6) ? r.pick(others).name : undefined;
  const adapters: AdapterSpec[] = chosen.map((a) => {
    if (a.name === fallbackAdapter)
      return { ...a, supported: ['2023-10', '2024-04', '2024-09'], fallback: RETIRING };
    if (a.name === decoyAdapter)
      return { ...a, supported: ['2023-10', '2024-04', '2024-09'], fallback: '2024-09' };
    return { ...a, supported: [...VERSIONS] };
  });
  const sandbox = { readable: r.chance(0.35), pin: r.pick(['2023-10', '2024-04', '2024-09']) };
  const gatewayRegion = r.chance(0.4) ? 'eu-west' : undefined;
  let batchJob = r.chance(0.4);
  // Every case carries at least one thing the child cannot know.
  if (sandbox.readable && !gatewayRegion && !batchJob) batchJob = true;
  const merchants = createMerchants(r, adapters, fallbackAdapter, decoyAdapter);
  // The ticket arrives in late September 2025, a few weeks after the provider's announcement.
  const announcedDate = addDays('2025-08-01', r.int(0, 35));
  const retirementDate = addDays(announcedDate, r.int(90, 200));
  const ticketMerchant = r.pick(merchants.filter((m) => m.apiVersion === RETIRING));
  return {
    index,
    provider,
    successor: '2024-09',
    retirementDate,
    announcedDate,
    graceDays: r.pick([0, 7, 14]),
    adapters,
    fallbackAdapter,
    decoyAdapter,
    sandbox,
    gatewayRegion,
    batchJob,
    merchants,
    assumption: r.pick(['column', 'column', 'fallback-trigger', 'region'] as const),
    unresolved: r.pick([undefined, 'notify-sandbox', 'grace'] as const),
    ticket: { number: r.int(48000, 61999), merchantId: ticketMerchant.id, requester: r.pick(requesters) },
  };
}

function createMerchants(
  r: Random,
  adapters: AdapterSpec[],
  fallback: string,
  decoy: string | undefined,
): Merchant[] {
  const total = r.int(36, 44);
  const sandboxCount = r.int(2, 4);
  const live = total - sandboxCount;
  const indirectCount = r.int(2, 4);
  const directCount = r.int(15, 22);
  // The fallback adapter needs room for its indirect rows plus a few ordinary ones.
  const names = adapters.map((a) => a.name);
  const assigned: string[] = [];
  for (let i = 0; i < indirectCount + 3; i++) assigned.push(fallback);
  while (assigned.length < live) assigned.push(r.pick(names));
  const order = r.shuffle(assigned.map((a, i) => ({ a, i })));
  const fallbackRows = order.filter((x) => x.a === fallback).map((x) => x.i);
  const indirect = new Set(r.sample(fallbackRows, indirectCount));
  const rest = order.map((x) => x.i).filter((i) => !indirect.has(i));
  const direct = new Set(r.sample(rest, directCount));
  const usedNames = new Set<string>();
  const rows: Merchant[] = [];
  for (let i = 0; i < live; i++) {
    const adapter = assigned[i]!;
    const kind = indirect.has(i) ? 'indirect' : direct.has(i) ? 'direct' : 'other';
    const apiVersion = liveApiVersion(r, kind, adapter === fallback || adapter === decoy);
    const region = r.pick(regions);
    rows.push({
      id: '',
      name: uniqueName(r, usedNames),
      adapter,
      apiVersion,
      region,
      currency: currencyOf(region, r),
      createdAt: created(r),
      updatedAt: date(r),
    });
  }
  for (let i = 0; i < sandboxCount; i++) rows.push(sandboxMerchant(r, usedNames));
  const ids = r.sample(
    Array.from({ length: 90 }, (_, i) => i + 1),
    rows.length,
  );
  return r
    .shuffle(rows)
    .map((m, i) => ({ ...m, id: `m_${String(ids[i]).padStart(4, '0')}` }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * A live merchant's API version: an indirect row (through the fallback adapter) on 2025-01 or none, a
 * direct one on the retiring version, one of the fallback or decoy adapter on an older version.
 */
function liveApiVersion(r: Random, kind: 'indirect' | 'direct' | 'other', olderOnly: boolean): string | null {
  if (kind === 'indirect') return r.chance(0.5) ? null : '2025-01';
  if (kind === 'direct') return RETIRING;
  if (olderOnly) return r.pick(['2024-04', '2024-09', '2024-09']);
  return r.pick(['2024-04', '2024-09', '2024-09', '2025-01', null]);
}

function sandboxMerchant(r: Random, usedNames: Set<string>): Merchant {
  return {
    id: '',
    name: `${uniqueName(r, usedNames)} (test)`,
    adapter: 'sandbox',
    apiVersion: r.pick(['2024-04', '2024-09', null]),
    region: 'sandbox',
    currency: 'usd',
    createdAt: created(r),
    updatedAt: date(r),
  };
}

function uniqueName(r: Random, used: Set<string>): string {
  for (;;) {
    const n = `${r.pick(nameA)} ${r.pick(nameB)}`;
    if (!used.has(n)) {
      used.add(n);
      return n;
    }
  }
}

function date(r: Random): string {
  return `2025-${String(r.int(1, 8)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
}

function created(r: Random): string {
  return `20${r.int(19, 24)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
}

function currencyOf(region: string, r: Random): string {
  if (region === 'eu-west') return r.pick(['eur', 'eur', 'gbp']);
  if (region === 'ap-southeast') return r.pick(['sgd', 'aud', 'usd']);
  return 'usd';
}

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** What the world implies: who is affected, through which path, and what cannot be known. */
export function groundTruth(w: LedgerWorld): GroundTruth {
  const fb = w.adapters.find((a) => a.name === w.fallbackAdapter)!;
  const direct = w.merchants.filter((m) => m.apiVersion === RETIRING).map((m) => m.id);
  const indirect = w.merchants
    .filter(
      (m) =>
        m.adapter === fb.name &&
        m.apiVersion !== RETIRING &&
        (m.apiVersion === null || !fb.supported.includes(m.apiVersion)),
    )
    .map((m) => m.id);
  const sandboxRows = w.merchants
    .filter((m) => m.adapter === 'sandbox' && m.apiVersion !== RETIRING)
    .map((m) => m.id);
  const sandboxPinned = w.sandbox.readable && w.sandbox.pin === RETIRING ? sandboxRows : [];
  const unknown = w.sandbox.readable ? [] : sandboxRows;
  const affected = [...direct, ...indirect, ...sandboxPinned].sort();
  return { direct, indirect, sandboxPinned, unknown, affected };
}
