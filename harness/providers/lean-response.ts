import type http from 'node:http';

/** The read-only Headers surface the SDKs use (get, has, iteration). */
export class LeanHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
  entries(): IterableIterator<[string, string]> {
    const out: [string, string][] = [];
    for (const k of Object.keys(this.raw)) out.push([k, this.get(k)!]);
    return out[Symbol.iterator]();
  }
  keys(): IterableIterator<string> {
    return Object.keys(this.raw)[Symbol.iterator]();
  }
  values(): IterableIterator<string> {
    return Object.keys(this.raw)
      .map((k) => this.get(k)!)
      [Symbol.iterator]();
  }
  forEach(cb: (value: string, key: string) => void): void {
    for (const k of Object.keys(this.raw)) cb(this.get(k)!, k);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A fully read response with the fetch Response surface the SDKs use for JSON calls. */
export class LeanResponse {
  readonly ok: boolean;
  readonly headers: LeanHeaders;
  readonly body = null;
  readonly redirected = false;
  readonly type = 'basic';
  bodyUsed = false;
  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    raw: http.IncomingHttpHeaders,
    private readonly bytes: Buffer,
    /** The body already parsed by the transport's check (a 2xx JSON body is not parsed twice). */
    private readonly parsed?: unknown,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new LeanHeaders(raw);
  }
  async text(): Promise<string> {
    this.bodyUsed = true;
    return this.bytes.toString('utf8');
  }
  async json(): Promise<unknown> {
    if (this.parsed !== undefined) {
      this.bodyUsed = true;
      return this.parsed;
    }
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    this.bodyUsed = true;
    return this.bytes.buffer.slice(
      this.bytes.byteOffset,
      this.bytes.byteOffset + this.bytes.byteLength,
    ) as ArrayBuffer;
  }
}
