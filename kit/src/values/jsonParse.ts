/**
 * JSON.parse that keeps integers beyond 2^53 exact (as bigint), for clients of the delegation
 * and reward endpoints, whose amounts are JSON integers of any size. A plain recursive-descent
 * parser (Node 20's JSON.parse cannot hand a reviver the source text of a number).
 */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

export function parseJsonExact(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at position ${i}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const value = (depth: number): unknown => {
    if (depth > 512) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const key = str();
        ws();
        if (text[i++] !== ':') fail('expected :');
        out[key] = value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return out;
        } else fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return out;
        } else fail('expected , or ]');
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected character');
    i += m[0].length;
    const n = Number(m[0]);
    if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(n)) return BigInt(m[0]);
    return n;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const result = value(0);
  ws();
  if (i !== text.length) fail('trailing characters');
  return result;
}
