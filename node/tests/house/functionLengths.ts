/**
 * The functions of a TypeScript source and how many lines each spans, for the house rule that
 * keeps functions short (house.test.ts). TypeScript 7 ships no compiler API to JavaScript, so
 * this reads the text itself: comments, strings, template literals and regular expressions are
 * blanked first (their newlines kept, so lines still count), then every body that follows a
 * parameter list, `function f(…) {`, a method `m(…): T {`, an accessor, an arrow `(…) => {`, is
 * matched to its closing brace. A control statement's parentheses (`if (…) {`) open no function.
 * A function's lines run from the line of its head to the line of its closing brace, nested
 * functions included (as ESLint's max-lines-per-function counts).
 */

export interface FunctionSpan {
  /** The function's name: its own, the variable or property it is assigned to, or `(anonymous)`. */
  readonly name: string;
  /** 1-based line of its head and of its closing brace. */
  readonly startLine: number;
  readonly endLine: number;
  readonly lines: number;
}

const CONTROL = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'with',
  'return',
  'typeof',
  'await',
  'yield',
]);
/** A `/` after one of these (or at the start) begins a regular expression, not a division. */
const BEFORE_REGEX = new Set([
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);

/** The text with comments, strings, template text and regular expressions replaced by spaces. */
export function blanked(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  /** Template nesting: each entry is the brace depth at which a `${` began. */
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  let lastSignificant = '';
  let lastWord = '';
  const n = text.length;
  const scanTemplate = (start: number): number => {
    // From just after a backtick (or a `}` closing `${`), to the closing backtick or a `${`.
    let j = start;
    while (j < n) {
      const c = text[j]!;
      if (c === '\\') j += 2;
      else if (c === '`') {
        blank(start, j);
        return j + 1;
      } else if (c === '$' && text[j + 1] === '{') {
        blank(start, j);
        templates.push(depth);
        depth++;
        return j + 2;
      } else j++;
    }
    blank(start, n);
    return n;
  };
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      lastSignificant = c;
      continue;
    }
    if (c === '`') {
      i = scanTemplate(i + 1);
      lastSignificant = '`';
      continue;
    }
    if (c === '/' && (lastSignificant === '' || BEFORE_REGEX.has(lastSignificant) || CONTROL.has(lastWord))) {
      let j = i + 1;
      let inClass = false;
      while (j < n && text[j] !== '\n') {
        const d = text[j]!;
        if (d === '/' && !inClass) break;
        if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        j += d === '\\' ? 2 : 1;
      }
      blank(i + 1, j);
      i = j + 1;
      lastSignificant = '/';
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') {
      depth--;
      if (templates.length > 0 && templates[templates.length - 1] === depth) {
        templates.pop();
        i = scanTemplate(i + 1);
        lastSignificant = '`';
        continue;
      }
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[\w$]/.test(c)) {
      let j = i;
      while (j < n && /[\w$]/.test(text[j]!)) j++;
      lastWord = text.slice(i, j);
      lastSignificant = 'a';
      i = j;
      continue;
    }
    lastWord = '';
    // A non-null assertion (`x!`, `f()!`, `a[0]!`) ends an expression: a `/` after it divides.
    if (c === '!' && (lastSignificant === 'a' || lastSignificant === ')' || lastSignificant === ']')) {
      i++;
      continue;
    }
    lastSignificant = c;
    i++;
  }
  return out.join('');
}

const lineAt = (lineStarts: readonly number[], pos: number): number => {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
};

/** Every position's matching bracket, for ( [ { and their closers. */
function matches(code: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '(' || c === '[' || c === '{') stack.push(i);
    else if (c === ')' || c === ']' || c === '}') {
      const open = stack.pop();
      if (open !== undefined) {
        pairs.set(open, i);
        pairs.set(i, open);
      }
    }
  }
  return pairs;
}

const skipSpace = (code: string, i: number) => {
  while (i < code.length && /\s/.test(code[i]!)) i++;
  return i;
};
const skipSpaceBack = (code: string, i: number) => {
  while (i >= 0 && /\s/.test(code[i]!)) i--;
  return i;
};

/**
 * From just after a `:` of a return type, the position of the `{` or `=>` that ends it (skipping
 * the type's own brackets, generics and arrow types), or -1.
 */
function endOfReturnType(code: string, from: number, pairs: Map<number, number>): number {
  let i = from;
  let angle = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '(' || c === '[') i = (pairs.get(i) ?? i) + 1;
    else if (c === '<') {
      angle++;
      i++;
    } else if (c === '>' && code[i - 1] !== '=') {
      angle--;
      i++;
    } else if (c === '{') {
      // An object type directly after `:`, `|`, `&`, `<` or `,` belongs to the type.
      const before = code[skipSpaceBack(code, i - 1)];
      if (angle > 0 || before === ':' || before === '|' || before === '&' || before === ',')
        i = (pairs.get(i) ?? i) + 1;
      else return i;
    } else if (c === '=' && code[i + 1] === '>') {
      if (angle > 0) i += 2;
      else {
        // `=> {` ends an arrow's return type only when an arrow's body follows; in a function type it is part of it.
        return i;
      }
    } else if (c === ';' || c === '}') return -1;
    else i++;
  }
  return -1;
}

/** The name a function head at `open` (its parameter list's `(`) goes by, and whether it is a control statement's. */
function nameBefore(code: string, open: number): { name: string; control: boolean } {
  let j = skipSpaceBack(code, open - 1);
  // Generic parameters: f<T>(…)
  if (code[j] === '>') {
    let depth = 0;
    for (; j >= 0; j--) {
      if (code[j] === '>') depth++;
      else if (code[j] === '<' && --depth === 0) break;
    }
    j = skipSpaceBack(code, j - 1);
  }
  const end = j + 1;
  while (j >= 0 && /[\w$]/.test(code[j]!)) j--;
  const word = code.slice(j + 1, end);
  if (CONTROL.has(word)) return { name: word, control: true };
  // `function (…)`: a function expression, named by what it is assigned to.
  if (word === 'function' || word === '')
    return { name: assignedName(code, j + 1) ?? '(anonymous)', control: false };
  return { name: word, control: false };
}

/** `const name = …` or `name: …` just before `at`, or null. */
function assignedName(code: string, at: number): string | null {
  let k = skipSpaceBack(code, at - 1);
  while (k >= 0 && /[\w$]/.test(code[k]!)) {
    // `async` or `function` before the parameters
    const end = k + 1;
    while (k >= 0 && /[\w$]/.test(code[k]!)) k--;
    const w = code.slice(k + 1, end);
    if (w !== 'async' && w !== 'function') return w;
    k = skipSpaceBack(code, k);
  }
  if (code[k] === '=' && code[k - 1] !== '=' && code[k - 1] !== '!' && code[k + 1] !== '>')
    k = skipSpaceBack(code, k - 1);
  else if (code[k] === ':') k = skipSpaceBack(code, k - 1);
  else return null;
  // A type annotation between the name and the `=`: `const f: T = …` — take the nearest word.
  const end = k + 1;
  while (k >= 0 && /[\w$]/.test(code[k]!)) k--;
  const w = code.slice(k + 1, end);
  return w === '' ? null : w;
}

/**
 * Where an arrow's head begins, from its `=>` at `arrow`: its parameter list's `(`, also past a
 * return type (`(a): Promise<T> => {`), or a lone parameter's name (`x => {`).
 */
function arrowHead(code: string, arrow: number, pairs: Map<number, number>): number {
  const back = skipSpaceBack(code, arrow - 1);
  if (code[back] === ')') return pairs.get(back) ?? back;
  // A return type: back over it, its brackets whole, to a `:` that follows the parameters' `)`.
  let angle = 0;
  for (let k = back; k >= 0; k--) {
    const c = code[k]!;
    if (c === ')' || c === ']' || c === '}') k = pairs.get(k) ?? k;
    else if (c === '>') angle++;
    else if (c === '<') angle--;
    else if (angle === 0 && c === ':') {
      const before = skipSpaceBack(code, k - 1);
      if (code[before] === ')') return pairs.get(before) ?? before;
      break;
    } else if (angle === 0 && (c === ';' || c === ',' || c === '=' || c === '(' || c === '{')) break;
  }
  let head = back;
  while (head > 0 && /[\w$]/.test(code[head - 1]!)) head--;
  return head;
}

/** Every function body of `text`, in source order. */
export function functionSpans(text: string): FunctionSpan[] {
  const code = blanked(text);
  const pairs = matches(code);
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1);
  const found: FunctionSpan[] = [];
  const seen = new Set<number>();
  const add = (name: string, headAt: number, body: number) => {
    const close = pairs.get(body);
    if (close === undefined || seen.has(body)) return;
    seen.add(body);
    const startLine = lineAt(lineStarts, headAt);
    const endLine = lineAt(lineStarts, close);
    found.push({ name, startLine, endLine, lines: endLine - startLine + 1 });
  };
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '=' && code[i + 1] === '>') {
      // An arrow: its body, when it is a block.
      const body = skipSpace(code, i + 2);
      if (code[body] !== '{') continue;
      const headAt = arrowHead(code, i, pairs);
      const name = assignedName(code, headAt) ?? '(anonymous)';
      add(name, headAt, body);
      continue;
    }
    if (c !== ')') continue;
    const open = pairs.get(i);
    if (open === undefined) continue;
    let after = skipSpace(code, i + 1);
    if (code[after] === ':') {
      after = endOfReturnType(code, after + 1, pairs);
      if (after < 0) continue;
    }
    if (code[after] !== '{') continue;
    const { name, control } = nameBefore(code, open);
    if (control) continue;
    // A parameter list, then a body: a function, method or accessor.
    add(name, open, after);
  }
  return found.sort((a, b) => a.startLine - b.startLine);
}
