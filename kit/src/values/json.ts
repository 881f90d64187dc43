/**
 * JSON text where bigint values are written as exact integer literals of any size
 * (DESIGN decision 6: 10000000000000000000 must come out digit for digit, never as a float).
 * A direct serializer rather than a replacer trick, so no string value can pass for a number.
 */
export function stringifyExact(value: unknown): string {
  try {
    // The native serializer is several times faster, and throws on the first bigint it meets.
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return serialize(value);
  }
}

function serialize(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value))
        return `[${value.map((v) => (v === undefined ? 'null' : serialize(v))).join(',')}]`;
      const parts: string[] = [];
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined || typeof v === 'function') continue;
        parts.push(`${JSON.stringify(k)}:${serialize(v)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return 'null';
  }
}
