import type { Transcript } from '../../harness/core/index.ts';
import type { LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';
import { SessionBuilder } from '../lib/session.ts';
import { Random } from '../lib/random.ts';
import {
  chatThread,
  incident,
  kbSearch,
  relatedTickets,
  runbook,
  ticketThread,
  vendorNotice,
} from './support.ts';
import { earlierEscalations } from './earlier.ts';
import {
  accountRecord,
  noticeTemplate,
  previousEscalation,
  sandboxArticle,
  usageDashboard,
  versionsArticle,
} from './support-more.ts';

function adapterLogs(w: LedgerWorld, r: Random): string {
  const lines = Array.from({ length: 20 }, (_, i) => {
    const m = r.pick(w.merchants.filter((x) => x.adapter !== 'sandbox'));
    return `2025-09-${String(20 + (i % 7)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:${String(r.int(10, 59))}:${String(r.int(10, 59))}Z WARN adapter=${m.adapter} op=${r.pick(['createCharge', 'refund', 'createPayout', 'createInvoice'])} request_id=req_${r.hex(16)} provider_warning="299 - API version ${RETIRING} is deprecated and will stop working on ${w.retirementDate}"`;
  });
  return [
    'query: version_retired OR "Warning: 299" · range: 7d',
    'version_retired: 0 events',
    `Warning 299: ${r.int(8000, 60000)} events (showing 20, sampled)`,
    '',
    ...lines,
  ].join('\n');
}

/** The research brief the parent hands its child (the spawn call's input and the child's first message). */
export function researchBrief(w: LedgerWorld): string {
  return [
    `Research task: ${w.provider.name} retires API version ${RETIRING} on ${w.retirementDate}. Find every Ledgerline merchant that will break.`,
    `Check merchant_config, every adapter under adapters/ (including fallback or default paths), the vendored ${w.provider.name} changelog, and anything else that sends the ${w.provider.header} header.`,
    `For each finding give its source (table.column or file:line). Say plainly what you could not determine and what you had to assume.`,
  ].join('\n');
}

/**
 * The parent's own session before the return: a support-escalation conversation (ticket, knowledge
 * base, provider notice, related tickets, an old incident, a chat thread) that ends with the parent's
 * spawn call, still waiting for its result.
 */
export function parentSession(w: LedgerWorld, seed: number): { transcript: Transcript; spawnCallId: string } {
  const r = new Random('ledgerline-parent', seed, w.index);
  const m = w.merchants.find((x) => x.id === w.ticket.merchantId)!;
  const s = new SessionBuilder('escalation-agent', 'parent', `toolu_lp${w.index}`, 'large');
  earlierEscalations(s, w, r);
  reportedIssue(s, w, m, r);
  failingToday(s, w, r);
  relatedEvidence(s, w, m, r);
  s.user(
    'Legal reminder from the support lead: every merchant we notify must be backed by where we found it, and do not email test-mode merchants unless we are sure. Use the notice template when you draft.',
    'tier2',
  );
  s.act('Fetching the notice template so the final answer fits it.', {
    name: 'read_kb_article',
    input: { id: 'KB-1650' },
    result: noticeTemplate(w),
  });
  const [spawn] = s.pending(
    'I will hand the code and table research to a research child so its findings come back with sources, then write the answer.',
    {
      name: 'spawn_research',
      input: { task_name: 'ledgerline-version-impact', message: researchBrief(w) },
    },
  );
  return { transcript: s.build(`ledgerline-${w.index}-parent`), spawnCallId: spawn!.id };
}

type Merchant = LedgerWorld['merchants'][number];

/** The escalation, the ticket, the merchant's account, the runbooks and the provider's notice. */
function reportedIssue(s: SessionBuilder, w: LedgerWorld, m: Merchant, r: Random): void {
  s.user(
    `Escalation from Tier 2, ticket #${w.ticket.number}: ${m.name} (${m.id}) asks whether their integration breaks when ${w.provider.name} retires API version ${RETIRING}. ` +
      `Several other merchants are asking the same. Before anyone replies I need the blast radius across all our merchants and an answer merchant success can act on.`,
    'tier2',
  );
  s.act(`I'll start with the ticket thread to see exactly what ${m.name} reported.`, {
    name: 'get_ticket',
    input: { id: w.ticket.number, include: ['messages', 'internal_notes'] },
    result: ticketThread(w, r),
  });
  s.act(
    `Their requests carry ${w.provider.header}: ${RETIRING} and the provider's deprecation warning. Let me look up the merchant's account and what the knowledge base says about version retirements.`,
    { name: 'get_merchant_account', input: { merchant_id: m.id }, result: accountRecord(w, m, r) },
    { name: 'search_kb', input: { query: `api version retirement ${w.provider.slug}` }, result: kbSearch(w) },
  );
  s.act(
    'KB-2210 is the runbook for exactly this; KB-1987 explains how versions are set. Reading both.',
    { name: 'read_kb_article', input: { id: 'KB-2210' }, result: runbook(w) },
    { name: 'read_kb_article', input: { id: 'KB-1987' }, result: versionsArticle(w) },
  );
  s.act(
    `The runbook wants the provider's exact terms first. Pulling the ${w.provider.name} notice from the partner inbox.`,
    {
      name: 'search_mail',
      input: { mailbox: 'platform-partners', query: `${w.provider.name} ${RETIRING} retired` },
      result: vendorNotice(w),
    },
  );
}

/** Tier 2 asks whether anything fails today; the adapter logs say no. */
function failingToday(s: SessionBuilder, w: LedgerWorld, r: Random): void {
  s.user(
    'While you are at it: are we already seeing version_retired errors anywhere? Finance wants to know if anything is failing today.',
    'tier2',
  );
  s.act('Searching the adapter logs for version_retired and deprecation warnings over the last 7 days.', {
    name: 'search_logs',
    input: { query: 'version_retired OR "Warning: 299"', range: '7d', limit: 20 },
    result: adapterLogs(w, r),
  });
  s.say(
    `Nothing is failing today: no version_retired errors in the last 7 days, only the provider's deprecation warnings on responses. The question is what happens on ${w.retirementDate}.`,
  );
}

/** Other tickets, version metrics, the last retirement's incident, the chat thread, a summary. */
function relatedEvidence(s: SessionBuilder, w: LedgerWorld, m: Merchant, r: Random): void {
  s.act(
    'Now the other tickets asking about this, and what our edge metrics show for version headers.',
    {
      name: 'search_tickets',
      input: { query: `${RETIRING} OR version_retired OR deprecat*`, status: 'open' },
      result: relatedTickets(w, r),
    },
    { name: 'get_dashboard', input: { id: 'provider-versions', range: '30d' }, result: usageDashboard(w, r) },
  );
  s.act(
    'The internal note mentions INC-1877 from the last retirement; reading the postmortem and the sandbox article the runbook points to.',
    { name: 'get_incident', input: { id: 'INC-1877' }, result: incident() },
    { name: 'read_kb_article', input: { id: 'KB-1402' }, result: sandboxArticle(w) },
  );
  s.act(
    'Checking what engineering has said so far, and how the last escalation answer of this kind was written.',
    {
      name: 'search_chat',
      input: { channel: '#payments-platform', query: RETIRING },
      result: chatThread(w, r),
    },
    { name: 'get_escalation', input: { id: 'ESC-0412' }, result: previousEscalation(w) },
  );
  s.say(
    `Summary so far: ${w.provider.name} retires ${RETIRING} on ${w.retirementDate}; retired requests get HTTP 410. ${m.name} is pinned to it according to the ticket logs. ` +
      `The runbook says the table is not the whole story and that every finding needs a source. I have not looked at the code or the table myself yet.`,
  );
}
