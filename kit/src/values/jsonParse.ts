/**
 * JSON.parse that keeps integers beyond 2^53 exact (as bigint), for clients of the delegation
 * and reward endpoints, whose amounts are JSON integers of any size. A plain recursive-descent
 * parser (Node 20's JSON.parse cannot hand a reviver the source text of a number), one method per
 * kind of value.
 */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

const WORDS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;
const NUMBER = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/;
const MAX_DEPTH = 512;

class Parser {
  private i = 0;
  constructor(private readonly text: string) {}

  parse(): unknown {
    const result = this.value(0);
    this.ws();
    if (this.i !== this.text.length) this.fail('trailing characters');
    return result;
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(`${what} at position ${this.i}`);
  }

  private ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  /** Consumes `close` after optional white space, if it is there. */
  private closes(close: string): boolean {
    this.ws();
    if (this.text[this.i] !== close) return false;
    this.i++;
    return true;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    for (const [word, v] of WORDS)
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    return this.number();
  }

  private object(depth: number): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    if (this.closes('}')) return out;
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail('expected a key');
      const key = this.string();
      this.ws();
      if (this.text[this.i++] !== ':') this.fail('expected :');
      out[key] = this.value(depth + 1);
      this.ws();
      if (this.text[this.i] === ',') this.i++;
      else if (this.closes('}')) return out;
      else this.fail('expected , or }');
    }
  }

  private array(depth: number): unknown[] {
    this.i++;
    const out: unknown[] = [];
    if (this.closes(']')) return out;
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      if (this.text[this.i] === ',') this.i++;
      else if (this.closes(']')) return out;
      else this.fail('expected , or ]');
    }
  }

  private string(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.text.length && this.text[this.i] !== '"')
      this.i += this.text[this.i] === '\\' ? 2 : 1;
    if (this.i >= this.text.length) this.fail('unterminated string');
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  /** A number; an integer beyond what a double holds exactly comes back as a bigint. */
  private number(): number | bigint {
    const m = NUMBER.exec(this.text.slice(this.i, this.i + 400));
    if (!m) return this.fail('unexpected character');
    this.i += m[0].length;
    const n = Number(m[0]);
    if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(n)) return BigInt(m[0]);
    return n;
  }
}

export function parseJsonExact(text: string): unknown {
  return new Parser(text).parse();
}
