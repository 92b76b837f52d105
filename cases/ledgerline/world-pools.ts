/** The pools a ledgerline world draws from: providers, adapters, regions, merchant names, requesters. */

export interface Provider {
  name: string;
  slug: string;
  /** The HTTP header carrying the version. */
  header: string;
  envPrefix: string;
}

export interface AdapterSpec {
  name: string;
  /** What the adapter does, for its source and docs. */
  purpose: string;
  supported: string[];
  /** The version it silently falls back to when negotiation fails; absent = it throws. */
  fallback?: string;
}

export const providers: Provider[] = [
  { name: 'Paylane', slug: 'paylane', header: 'Paylane-Version', envPrefix: 'PAYLANE' },
  { name: 'Strivo', slug: 'strivo', header: 'Strivo-Version', envPrefix: 'STRIVO' },
  { name: 'Corvex', slug: 'corvex', header: 'Corvex-Api-Version', envPrefix: 'CORVEX' },
  { name: 'Tallis Pay', slug: 'tallis', header: 'Tallis-Version', envPrefix: 'TALLIS' },
  { name: 'Brightwire', slug: 'brightwire', header: 'Brightwire-Version', envPrefix: 'BRIGHTWIRE' },
];

export const adapterPool: Omit<AdapterSpec, 'supported' | 'fallback'>[] = [
  { name: 'checkout', purpose: 'card-not-present checkout charges and 3-D Secure' },
  { name: 'subscriptions', purpose: 'recurring billing, mandates and dunning retries' },
  { name: 'payouts', purpose: 'merchant payouts and balance transfers' },
  { name: 'marketplace', purpose: 'split payments for marketplace sellers' },
  { name: 'terminal', purpose: 'card-present terminal payments' },
  { name: 'invoicing', purpose: 'hosted invoices and bank-transfer collection' },
];

export const regions = ['us-east', 'us-west', 'eu-west', 'ap-southeast'];
export const nameA = [
  'Harbor',
  'Juniper',
  'Copper',
  'Northwind',
  'Lumen',
  'Alder',
  'Saffron',
  'Beacon',
  'Meridian',
  'Kestrel',
  'Orchard',
  'Pioneer',
  'Tidewater',
  'Granite',
  'Willow',
  'Summit',
  'Bramble',
  'Cobalt',
  'Fennel',
  'Larkspur',
  'Quarry',
  'Redwood',
  'Solace',
  'Thistle',
];
export const nameB = [
  'Coffee Co',
  'Outfitters',
  'Books',
  'Dental',
  'Fitness',
  'Florist',
  'Market',
  'Supply',
  'Studios',
  'Bakery',
  'Cycles',
  'Pet Care',
  'Home Goods',
  'Travel',
  'Learning',
  'Apparel',
  'Wellness',
  'Electronics',
];
export const requesters = [
  'Dana Whitfield',
  'Priya Raman',
  'Marco Bellini',
  'Aiko Tanaka',
  'Sam Okafor',
  'Lena Hoffmann',
];
