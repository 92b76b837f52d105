import type { Scenario } from './scenarios.ts';

const HEDGE_Q = ['could not determine', 'could not confirm', 'unclear', 'not verified', 'unverified'];
const ASSUME_Q = ['assuming', 'assumption', 'assumed'];

export const moreScenarios: Scenario[] = [
  {
    id: 'flaky',
    repo: 'acme/checkout-web',
    orchestration: {
      userText:
        'CI has three flaky tests this week. Spawn a child per test to find the cause and fix it; once they report back, merge the fixes and run the whole suite five times in a row to be sure.',
      request: 'merge the fixes and run the whole suite five times in a row',
      cues: ['merge the fixes', 'five times'],
    },
    groundwork: [
      {
        text: 'Pulling the flake report from CI.',
        calls: [
          {
            name: 'ci_flakes',
            input: { branch: 'main', days: 7 },
            result:
              'test                                         runs  fails  last failure\ncart/coupon.spec.ts > applies percentage coupon  212     9  2025-09-24 (timeout 5000ms)\ncheckout/address.spec.ts > autocompletes city   212     6  2025-09-25 (expected "Lyon", got "")\npayments/3ds.spec.ts > shows challenge iframe   212    14  2025-09-25 (element not found: iframe#challenge)',
          },
          {
            name: 'read_file',
            input: { path: 'playwright.config.ts' },
            result:
              "export default defineConfig({\n  retries: process.env.CI ? 0 : 1,\n  timeout: 5_000,\n  use: { baseURL: 'http://localhost:4173', trace: 'retain-on-failure' },\n  webServer: { command: 'pnpm preview', port: 4173 },\n});",
          },
        ],
      },
    ],
    notes: [
      {
        id: 'worst',
        kind: 'confident',
        statement:
          'payments/3ds.spec.ts is the worst offender: 14 failures in 212 runs, always "element not found: iframe#challenge".',
        claim:
          'payments/3ds.spec.ts is the worst offender: 14 failures in 212 runs, always "element not found: iframe#challenge".',
        cues: ['3ds.spec.ts', '14 failures'],
        provenance: ['ci_flakes'],
      },
      {
        id: 'sandbox',
        kind: 'hedged',
        statement:
          'I could not determine whether the 3-D Secure sandbox was degraded on the failing days; its status page keeps no history.',
        claim: 'the 3-D Secure sandbox was degraded on the failing days',
        cues: ['sandbox was degraded'],
        qualifierCues: HEDGE_Q,
      },
      {
        id: 'timeout',
        kind: 'assumption',
        statement:
          'Assuming the 5 s test timeout in playwright.config.ts stays as is; raising it would hide the flakes.',
        claim: 'the 5 s test timeout in playwright.config.ts stays as is',
        cues: ['5 s test timeout', 'stays as is'],
        qualifierCues: ASSUME_Q,
      },
    ],
    facts: [
      {
        id: 'f-3ds',
        text: 'payments/3ds.spec.ts failed 14 of 212 runs with element not found: iframe#challenge',
        cues: ['iframe#challenge'],
      },
      {
        id: 'f-timeout',
        text: 'the Playwright test timeout is 5000 ms and CI runs with retries: 0',
        cues: ['retries: 0'],
      },
      {
        id: 'f-coupon',
        text: 'cart/coupon.spec.ts fails with timeout 5000ms (9 of 212 runs)',
        cues: ['coupon.spec.ts', 'timeout 5000ms'],
      },
    ],
    children: [
      {
        name: '3ds',
        task: 'Find and fix the flake in payments/3ds.spec.ts ("shows challenge iframe"). Branch: flaky/3ds. Report the cause and the fix.',
        facts: ['f-3ds', 'f-timeout'],
      },
      {
        name: 'coupon',
        task: 'Find and fix the flake in cart/coupon.spec.ts ("applies percentage coupon"). Branch: flaky/coupon. Report the cause and the fix.',
        facts: ['f-coupon', 'f-timeout'],
      },
    ],
    compactionSummary:
      'Summary of the conversation so far: three flaky Playwright tests on main. The user wants one child per test; when they report back the parent must merge the fixes and run the whole suite five times in a row.',
  },
  {
    id: 'i18n',
    repo: 'acme/storefront',
    orchestration: {
      userText:
        'We need German, French and Japanese for launch. Spawn one child per locale to translate the extracted strings; afterwards merge all locale branches and run the e2e suite with each locale.',
      request: 'merge all locale branches and run the e2e suite with each locale',
      cues: ['merge all locale branches', 'e2e suite'],
    },
    groundwork: [
      {
        text: 'Extracting the strings and reading the glossary.',
        calls: [
          {
            name: 'run',
            input: { command: 'pnpm i18n:extract' },
            result:
              'Extracted 412 messages from 96 files into locales/en.json\n  new: 38  changed: 4  unused: 11\nPlurals: 17 messages use ICU plural syntax\nPlaceholders: {count}, {name}, {price} — keep them verbatim',
          },
          {
            name: 'read_file',
            input: { path: 'locales/GLOSSARY.md' },
            result:
              '# Glossary\n- "cart" → de: Warenkorb, fr: panier, ja: カート\n- "checkout" → keep in English in all locales (brand decision, 2024-11)\n- Formal address: de uses "Sie", fr uses "vous".\n- Prices: never translate {price}; the formatter localises it.',
          },
        ],
      },
    ],
    notes: [
      {
        id: 'count',
        kind: 'confident',
        statement: 'There are 412 messages in locales/en.json, 17 of them ICU plurals.',
        claim: 'There are 412 messages in locales/en.json, 17 of them ICU plurals.',
        cues: ['412 messages', 'icu plurals'],
        provenance: ['pnpm i18n:extract'],
      },
      {
        id: 'ja-length',
        kind: 'hedged',
        statement:
          'I could not determine whether the Japanese strings fit the fixed-width buttons; nobody has a design for ja yet.',
        claim: 'the Japanese strings fit the fixed-width buttons',
        cues: ['fit the fixed-width buttons'],
        qualifierCues: HEDGE_Q,
      },
      {
        id: 'unused',
        kind: 'assumption',
        statement: 'Assuming the 11 unused messages can be left untranslated.',
        claim: 'the 11 unused messages can be left untranslated',
        cues: ['11 unused messages', 'left untranslated'],
        qualifierCues: ASSUME_Q,
      },
    ],
    facts: [
      {
        id: 'f-checkout',
        text: '"checkout" stays in English in every locale (glossary)',
        cues: ['checkout', 'english'],
      },
      {
        id: 'f-placeholders',
        text: 'placeholders such as {count}, {name} and {price} are kept verbatim',
        cues: ['{price}', 'verbatim'],
      },
      { id: 'f-formal', text: 'German uses the formal "Sie"', cues: ['"sie"'] },
    ],
    children: [
      {
        name: 'de',
        task: 'Translate locales/en.json into locales/de.json following locales/GLOSSARY.md. Keep placeholders like {price} verbatim. Branch: i18n/de. Report anything you could not translate.',
        facts: ['f-checkout', 'f-placeholders', 'f-formal'],
      },
      {
        name: 'ja',
        task: 'Translate locales/en.json into locales/ja.json. Branch: i18n/ja. Report anything you could not translate.',
        facts: ['f-checkout', 'f-placeholders'],
      },
    ],
    compactionSummary:
      'Summary of the conversation so far: launch needs de, fr and ja. The user asked for one child per locale; afterwards the parent must merge all locale branches and run the e2e suite with each locale.',
  },
];
