/**
 * fast-check arbitraries of whole HTTP requests to the RPC, as bytes: every route's shape with
 * random segments and random paths, methods, versions, headers (odd Content-Type,
 * Content-Length and Transfer-Encoding, huge or repeated headers, Expect, Upgrade), query
 * strings and bodies (random bytes, random JSON, deep nesting, oversized, and valid signed
 * transactions with any field mutated). Every request is framed so that the server has all it
 * needs to answer: a body is complete, or its framing is wrong in a way a parser sees at once.
 */
import fc from 'fast-check';
import { TX_TYPES } from '../../../src/chain/index.js';
import { chunkedBody } from '../../support/rawHttp.js';

/** Values from the node under test, so that routes also hit real data. */
export interface World {
  readonly heights: readonly string[];
  readonly addresses: readonly string[];
  readonly txHashes: readonly string[];
  readonly snapshotHeights: readonly string[];
  /** Valid signed transactions in their JSON form (covering every type and payload field). */
  readonly txs: readonly Readonly<Record<string, unknown>>[];
}

type Framing =
  | { readonly kind: 'none' }
  | { readonly kind: 'length' }
  | { readonly kind: 'chunked'; readonly te: string; readonly piece: number }
  /** A Content-Length a parser must refuse; the body is sent as it is. */
  | { readonly kind: 'bad-length'; readonly values: readonly string[] }
  /** A declared length over the 64 KiB limit, and only the start of the body. */
  | { readonly kind: 'over-limit'; readonly declared: number }
  | { readonly kind: 'bad-chunk'; readonly sizeLine: string }
  | { readonly kind: 'length-and-chunked' };

export interface FuzzRequest {
  readonly method: string;
  readonly target: string;
  readonly version: string;
  readonly host: boolean;
  readonly headers: readonly (readonly [string, string])[];
  readonly framing: Framing;
  readonly body: Buffer;
}

const CRLF = '\r\n';

export function requestBytes(r: FuzzRequest): Buffer {
  const lines = [`${r.method} ${r.target} ${r.version}`];
  if (r.host) lines.push('Host: 127.0.0.1');
  for (const [name, value] of r.headers) lines.push(`${name}: ${value}`);
  let body = r.body;
  const f = r.framing;
  if (f.kind === 'length') lines.push(`Content-Length: ${body.length}`);
  else if (f.kind === 'bad-length') for (const v of f.values) lines.push(`Content-Length: ${v}`);
  else if (f.kind === 'over-limit') {
    lines.push(`Content-Length: ${f.declared}`);
    body = body.subarray(0, 1000);
  } else if (f.kind === 'chunked' || f.kind === 'length-and-chunked') {
    if (f.kind === 'length-and-chunked') lines.push(`Content-Length: ${body.length}`);
    lines.push(`Transfer-Encoding: ${f.kind === 'chunked' ? f.te : 'chunked'}`);
    body = chunkedBody(body, f.kind === 'chunked' ? f.piece : 1024);
  } else if (f.kind === 'bad-chunk') {
    lines.push('Transfer-Encoding: chunked');
    body = Buffer.concat([Buffer.from(`${f.sizeLine}${CRLF}`), body, Buffer.from(`${CRLF}0${CRLF}${CRLF}`)]);
  } else body = Buffer.alloc(0);
  return Buffer.concat([Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'utf8'), body]);
}

/** A short description of a request for a failure message. */
export function describeRequest(r: FuzzRequest): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length})` : s);
  const head = requestBytes({ ...r, body: Buffer.alloc(0) }).toString('latin1');
  return `${cut(head, 600)}\n[body ${r.body.length} bytes: ${cut(JSON.stringify(r.body.toString('latin1')), 300)}]`;
}

// ---- paths

const visibleAscii = (max: number) => fc.stringMatching(new RegExp(`^[!-~]{0,${max}}$`));
const encodedText = fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent);

function segment(world: World): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...world.heights, ...world.addresses, ...world.txHashes) },
    fc.nat().map(String),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
    encodedText,
    visibleAscii(30),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.constantFrom('', '.', '..', '%', '%00', '%ff', '%zz', '%2F', '-1', '00', '01', '1e3', '0x10', ' '),
    fc.integer({ min: 100, max: 20_000 }).map((n) => 'a'.repeat(n)),
  );
}

function path(world: World): fc.Arbitrary<string> {
  const seg = segment(world);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom('/status', '/validators', '/supply', '/snapshots', '/metrics', '/tx/send'),
    },
    { weight: 2, arbitrary: seg.map((s) => `/block/${s}`) },
    seg.map((s) => `/block/${s}/commit`),
    { weight: 2, arbitrary: seg.map((s) => `/balance/${s}`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(seg, fc.oneof(fc.constantFrom('delegations', 'rewards', 'unbonding'), seg))
        .map(([a, what]) => `/delegator/${a}/${what}`),
    },
    fc.oneof(fc.constantFrom(...world.snapshotHeights), seg).map((s) => `/snapshots/${s}`),
    { weight: 2, arbitrary: seg.map((s) => `/tx/${s}/receipt`) },
    fc.array(seg, { maxLength: 5 }).map((a) => `/${a.join('/')}`),
    fc.constantFrom(
      '*',
      '/',
      '//status',
      '/status/',
      '/STATUS',
      'http://127.0.0.1/status',
      'status',
      '/%2e%2e/status',
      '/status#x',
      '/status;x',
      '/block/1/',
      '/tx//receipt',
    ),
  );
}

function query(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    fc
      .array(fc.tuple(encodedText, encodedText), { maxLength: 5 })
      .map((kv) => `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}`),
    visibleAscii(40).map((q) => `?${q}`),
    fc.integer({ min: 1, max: 20 }).map((n) => `?${'a=1&'.repeat(n * 50)}`),
  );
}

// ---- headers

const tokenName = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,30}$/);
const fieldValue = fc.stringMatching(/^[ -~]{0,100}$/);
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/jsonx',
    'application/*',
    'text/plain',
    'multipart/form-data; boundary=x',
    '',
    ';',
    'application/json;;;',
  ),
  fieldValue,
);

function header(): fc.Arbitrary<readonly [string, string]> {
  return fc.oneof(
    fc.tuple(tokenName, fieldValue),
    fc.tuple(fc.constant('Content-Type'), contentType),
    fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', '100-Continue', 'x', '', '200-ok')),
    fc.tuple(
      fc.constant('Connection'),
      fc.constantFrom('close', 'keep-alive', 'Upgrade', 'x', 'close, close'),
    ),
    fc.tuple(fc.constant('Upgrade'), fc.constantFrom('websocket', 'h2c', 'x')),
    fc.tuple(fc.constant('Accept-Encoding'), fc.constantFrom('gzip', 'br', '*', 'identity;q=0')),
    fc.tuple(fc.constant('Content-Encoding'), fc.constantFrom('gzip', 'deflate', 'x')),
    fc.tuple(fc.constant('Host'), fc.constantFrom('', 'x', 'a b', '[::1]', '127.0.0.1:1')),
    fc.tuple(fc.constant('X-Bad'), fc.constantFrom('\u0001', 'a\u007fb', '\u00ff\u00fe')),
    fc.tuple(
      fc.constant('X-Big'),
      fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'x'.repeat(n)),
    ),
  );
}

function headers(): fc.Arbitrary<readonly (readonly [string, string])[]> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(header(), { maxLength: 6 }) },
    fc.tuple(header(), fc.integer({ min: 2, max: 300 })).map(([h, n]) => Array.from({ length: n }, () => h)),
  );
}

// ---- bodies

const DELETE = Symbol('delete');
export type Mutation =
  | typeof DELETE
  | { readonly set: unknown }
  | { readonly tweak: number; readonly text: string }
  /** Another value of the same shape (digits, hex, an address, a type): what passes the schema. */
  | { readonly plausible: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((plausible) => ({ plausible })) },
  fc.constant(DELETE),
  fc.jsonValue({ maxDepth: 2 }).map((v) => ({ set: v })),
  fc
    .constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 53,
      2 ** 53 - 1,
      1e308,
      -0,
      '',
      '0',
      '-1',
      '01',
      '1e3',
      ' 1',
      'zz',
      [],
      {},
    )
    .map((v) => ({ set: v })),
  fc.tuple(fc.nat(), fc.string({ maxLength: 3 })).map(([tweak, text]) => ({ tweak, text })),
);

function plausible(value: unknown, n: number, world: World): unknown {
  if (typeof value === 'number')
    return Number.isInteger(value) ? Math.max(0, value + (n % 5) - 2) : (n % 1_000_001) / 1e6;
  if (typeof value !== 'string' || value === '') return value;
  if ((TX_TYPES as readonly string[]).includes(value)) return TX_TYPES[n % TX_TYPES.length];
  if (value.startsWith('coin')) return world.addresses[n % world.addresses.length];
  if (/^[0-9]+$/.test(value)) return (BigInt(value) + BigInt(n % 1000) + 1n).toString();
  if (/^[0-9a-f]+$/.test(value)) {
    const at = n % value.length;
    return (
      value.slice(0, at) + ((Number.parseInt(value[at]!, 16) + 1) % 16).toString(16) + value.slice(at + 1)
    );
  }
  return value + String.fromCharCode(97 + (n % 26));
}

function mutate(value: unknown, m: Mutation, world: World): unknown {
  if (m === DELETE) return undefined;
  // A copy: fast-check hands out one instance of a constant (`{}`, `[]`) to every mutation that
  // draws it, and the same object set at `payload` and at `payload.x` made a cycle.
  if ('set' in m) return structuredClone(m.set);
  if ('plausible' in m) return plausible(value, m.plausible, world);
  if (typeof value === 'string') {
    const at = value.length === 0 ? 0 : m.tweak % value.length;
    return value.slice(0, at) + m.text + value.slice(at + 1);
  }
  if (typeof value === 'number') return value + ([1, -1, 2 ** 32, 0.5][m.tweak % 4] ?? 1);
  return m.text;
}

/** Every field of the world's transactions (payload fields as `payload.x`), and some unknown ones. */
function txFields(world: World): string[] {
  const fields = new Set(['chain_id', 'unknown_field', 'payload.unknown']);
  for (const tx of world.txs)
    for (const [k, v] of Object.entries(tx)) {
      fields.add(k);
      if (k === 'payload' && typeof v === 'object' && v !== null)
        for (const p of Object.keys(v)) fields.add(`payload.${p}`);
    }
  return [...fields].sort();
}

/** A copy of `tx` with `mutations` applied to its fields (`payload.x` for a payload field). */
export function mutated(
  tx: unknown,
  mutations: readonly (readonly [string, Mutation])[],
  world: World,
): Record<string, unknown> {
  const obj = structuredClone(tx) as Record<string, unknown>;
  for (const [field, m] of mutations) {
    const [top, sub] = field.split('.') as [string, string | undefined];
    if (sub === undefined) {
      const v = mutate(obj[top], m, world);
      if (v === undefined) delete obj[top];
      else obj[top] = v;
    } else {
      const payload = (typeof obj.payload === 'object' && obj.payload !== null ? obj.payload : {}) as Record<
        string,
        unknown
      >;
      const v = mutate(payload[sub], m, world);
      if (v === undefined) delete payload[sub];
      else payload[sub] = v;
      obj.payload = payload;
    }
  }
  return obj;
}

/** A valid signed transaction with 0 to 3 of its fields mutated (0: a replay of a valid one). */
function nearValidTx(world: World): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...world.txs),
      fc.oneof(
        { weight: 1, arbitrary: fc.constant([]) },
        {
          weight: 5,
          arbitrary: fc.array(fc.tuple(fc.constantFrom(...txFields(world)), mutation), {
            minLength: 1,
            maxLength: 3,
          }),
        },
      ),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant('plain') },
        fc.constantFrom('spaces', 'bom', 'trailing', 'duplicate-key'),
      ),
    )
    .map(([tx, mutations, spelling]) => {
      const obj = mutated(tx, mutations, world);
      const text = JSON.stringify(obj, null, spelling === 'spaces' ? 2 : undefined);
      if (spelling === 'bom') return `\ufeff${text}`;
      if (spelling === 'trailing') return `${text} x`;
      if (spelling === 'duplicate-key') return text.replace(/^\{/, '{"nonce":0,');
      return text;
    });
}

function body(world: World): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 6, arbitrary: nearValidTx(world).map((s) => Buffer.from(s)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((s) => Buffer.from(s)) },
    fc.integer({ min: 1, max: 20_000 }).map((n) => Buffer.from('['.repeat(n))),
    fc.integer({ min: 65_537, max: 200_000 }).map((n) => Buffer.alloc(n, 0x31)),
    fc.constant(Buffer.alloc(0)),
  );
}

// ---- framing and the whole request

const framingWithBody: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ kind: 'length' } as const) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('chunked', 'Chunked', 'gzip, chunked', ' chunked'),
        fc.integer({ min: 1, max: 70_000 }),
      )
      .map(([te, piece]) => ({ kind: 'chunked', te, piece }) as const),
  },
  fc
    .oneof(
      fc.constantFrom(
        ['-1'],
        ['abc'],
        ['1e3'],
        ['0x10'],
        ['5 5'],
        [''],
        ['+5'],
        ['99999999999999999999999'],
        ['1.0'],
      ),
      fc.tuple(fc.nat(100), fc.nat(100)).map(([a, b]) => [String(a), String(a + b + 1)]),
    )
    .map((values) => ({ kind: 'bad-length', values }) as const),
  fc.constantFrom(65_537, 1_000_000, 10 ** 12).map((declared) => ({ kind: 'over-limit', declared }) as const),
  fc
    .constantFrom('zz', '-1', 'fffffffffffffffffff', '1;'.padEnd(20_000, 'x'), '0x10', ' ')
    .map((sizeLine) => ({ kind: 'bad-chunk', sizeLine }) as const),
  fc.constant({ kind: 'length-and-chunked' } as const),
);

const method = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 3, arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  fc.constantFrom(
    'TRACE',
    'CONNECT',
    'PROPFIND',
    'SEARCH',
    'PURGE',
    'MKCOL',
    'COPY',
    'REPORT',
    'M-SEARCH',
    'QUERY',
  ),
  fc.stringMatching(/^[A-Za-z]{1,10}$/),
);

const version = fc.oneof(
  { weight: 20, arbitrary: fc.constant('HTTP/1.1') },
  fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x', 'http/1.1', 'HTTP/1.10', ''),
);

export function fuzzRequest(world: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method,
      target: fc.tuple(path(world), query()).map(([p, q]) => p + q),
      version,
      host: fc.oneof({ weight: 20, arbitrary: fc.constant(true) }, fc.constant(false)),
      headers: headers(),
      withBody: fc.boolean(),
      framing: framingWithBody,
      body: body(world),
    })
    .map(({ withBody, framing, ...r }) => ({
      ...r,
      // POST mostly carries a body, other methods sometimes do.
      framing: withBody || r.method === 'POST' ? framing : { kind: 'none' as const },
    }));
}

/** POST /tx/send with Content-Type application/json: the route most worth hitting hard. */
export function txSendRequest(world: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(body(world), framingWithBody, fc.array(header(), { maxLength: 2 }))
    .map(([b, framing, extra]) => ({
      method: 'POST',
      target: '/tx/send',
      version: 'HTTP/1.1',
      host: true,
      headers: [['Content-Type', 'application/json'], ...extra],
      framing,
      body: b,
    }));
}
