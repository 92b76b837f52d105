/**
 * A minimal JSON scanner used only to give errors a line number: V8's JSON.parse reports no position
 * for "Unexpected token" errors, and a structural problem found after parsing (an unknown block at
 * `messages[5].content[2]`) has a path but no line. The text has usually been parsed already, so
 * this runs only on the error path.
 */
export type JsonPath = readonly (string | number)[];

class Found extends Error {}
class Invalid extends Error {
  constructor(readonly offset: number) {
    super('invalid JSON');
  }
}

class Scanner {
  pos = 0;
  readonly path: (string | number)[] = [];
  found: number | undefined;

  constructor(
    private readonly text: string,
    private readonly target?: JsonPath,
  ) {}

  document(): void {
    this.value();
    this.ws();
    if (this.pos < this.text.length) throw new Invalid(this.pos);
  }

  private value(): void {
    this.ws();
    if (
      this.target &&
      this.path.length === this.target.length &&
      this.path.every((p, i) => p === this.target![i])
    ) {
      this.found = this.pos;
      throw new Found();
    }
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.pos)) {
        this.pos += literal.length;
        return;
      }
    }
    throw new Invalid(this.pos);
  }

  private object(): void {
    this.pos++;
    this.ws();
    if (this.text[this.pos] === '}') return void this.pos++;
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') throw new Invalid(this.pos);
      const start = this.pos;
      this.string();
      const key = JSON.parse(this.text.slice(start, this.pos)) as string;
      this.expect(':');
      this.path.push(key);
      this.value();
      this.path.pop();
      if (this.next(',', '}') === '}') return;
    }
  }

  private array(): void {
    this.pos++;
    this.ws();
    if (this.text[this.pos] === ']') return void this.pos++;
    for (let i = 0; ; i++) {
      this.path.push(i);
      this.value();
      this.path.pop();
      if (this.next(',', ']') === ']') return;
    }
  }

  private string(): void {
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++];
      if (c === '\\') this.pos++;
      else if (c === '"') return;
      else if (c! < ' ') throw new Invalid(this.pos - 1);
    }
    throw new Invalid(this.pos);
  }

  private number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 64));
    if (!m) throw new Invalid(this.pos);
    this.pos += m[0].length;
  }

  private next(...options: string[]): string {
    this.ws();
    const c = this.text[this.pos];
    if (c === undefined || !options.includes(c)) throw new Invalid(this.pos);
    this.pos++;
    return c;
  }

  private expect(c: string): void {
    this.next(c);
  }

  private ws(): void {
    while (this.pos < this.text.length && ' \t\r\n'.includes(this.text[this.pos]!)) this.pos++;
  }
}

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line where the value at `path` starts, or undefined when the path is not in the text. */
export function lineOfPath(text: string, path: JsonPath): number | undefined {
  const scanner = new Scanner(text, path);
  try {
    scanner.document();
  } catch (err) {
    if (err instanceof Found && scanner.found !== undefined) return lineAt(text, scanner.found);
  }
  return undefined;
}

/** The line of the first syntax error, or undefined when the text is valid JSON. */
export function syntaxErrorLine(text: string): number | undefined {
  try {
    new Scanner(text).document();
  } catch (err) {
    if (err instanceof Invalid) return lineAt(text, err.offset);
    throw err;
  }
  return undefined;
}

/** `messages[5].content[2]` — how a path reads in an error message. */
export function formatPath(path: JsonPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
