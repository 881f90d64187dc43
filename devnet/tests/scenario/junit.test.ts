/**
 * The JUnit report: well-formed XML (checked by a small strict reader below: every tag closed in
 * order, every attribute quoted, only the five entities), one testsuite per file, one testcase per
 * step plus the devnet's start, the load and the invariants, and counts that add up; a failure's
 * message is the step's error, and says the node and the height.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { junitXml, xmlEscape } from '../../src/scenario/junit.js';
import type { ScenarioResult } from '../../src/scenario/run.js';

interface Element {
  name: string;
  attrs: Record<string, string>;
  children: Element[];
  text: string;
}

const xmlUnescape = (s: string) => {
  assert.doesNotMatch(s, /&(?!(amp|lt|gt|quot|apos);)/, `a bare & in ${s}`);
  return s.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!,
  );
};

/** A strict reader of the XML this writer makes (no comments, CDATA or DTD). */
function parseXml(xml: string): Element {
  let i = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  assert.ok(decl, 'the XML declaration');
  i = decl[0].length;
  const root: Element = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  while (i < xml.length) {
    if (xml[i] === '<') {
      if (xml[i + 1] === '/') {
        const m = /^<\/([A-Za-z]+)>/.exec(xml.slice(i));
        assert.ok(m, `a closing tag at ${i}`);
        const open = stack.pop()!;
        assert.equal(m[1], open.name, `</${m[1]}> closes <${open.name}>`);
        i += m[0].length;
        continue;
      }
      const m = /^<([A-Za-z]+)((?:\s+[A-Za-z_:-]+="[^"<]*")*)\s*(\/?)>/.exec(xml.slice(i));
      assert.ok(m, `a well-formed tag at ${i}: ${xml.slice(i, i + 80)}`);
      const attrs: Record<string, string> = {};
      for (const a of m[2]!.matchAll(/([A-Za-z_:-]+)="([^"]*)"/g)) {
        assert.ok(!(a[1]! in attrs), `attribute ${a[1]} twice`);
        attrs[a[1]!] = xmlUnescape(a[2]!);
      }
      const el: Element = { name: m[1]!, attrs, children: [], text: '' };
      stack.at(-1)!.children.push(el);
      if (m[3] !== '/') stack.push(el);
      i += m[0].length;
    } else {
      const j = xml.indexOf('<', i);
      const text = xml.slice(i, j === -1 ? xml.length : j);
      assert.doesNotMatch(text, />/, 'a bare > in text');
      stack.at(-1)!.text += xmlUnescape(text);
      i = j === -1 ? xml.length : j;
    }
  }
  assert.equal(stack.length, 1, `unclosed: ${stack.map((e) => e.name).join(' > ')}`);
  assert.equal(root.children.length, 1, 'one root element');
  return root.children[0]!;
}

const passing: ScenarioResult = {
  name: 'smoke',
  source: 'devnet/scenarios/smoke.yaml',
  runtime: 'process',
  ok: true,
  ms: 9_800,
  load: null,
  keptHome: null,
  cases: [
    { label: 'devnet up', outcome: 'passed', ms: 4000 },
    { label: 'steps[0] the chain runs', outcome: 'passed', ms: 200 },
    { label: 'steps[1] kill validator-3', outcome: 'passed', ms: 300 },
    { label: 'invariants', outcome: 'passed', ms: 250 },
  ],
};
const failing: ScenarioResult = {
  name: 'written-to-fail',
  source: '/tmp/a "quoted" & <odd> path.yaml',
  runtime: 'docker',
  ok: false,
  ms: 12_345,
  load: null,
  keptHome: null,
  cases: [
    { label: 'devnet up', outcome: 'passed', ms: 4000 },
    {
      label: 'steps[0] balance <wrong> & "quoted"',
      outcome: 'failed',
      ms: 1500,
      error:
        'step "steps[0] balance <wrong> & \\"quoted\\"": validator-0 at height 7: expected balance 1coin; found 1000000coin\u0007',
      node: 'validator-0',
      height: 7,
    },
    { label: 'steps[1] kill validator-2', outcome: 'skipped', ms: 0, reason: 'an earlier step failed' },
    {
      label: 'load',
      outcome: 'failed',
      ms: 10,
      error: 'load: expected at least 1 transactions confirmed; found 0',
    },
    { label: 'invariants', outcome: 'skipped', ms: 0, reason: 'not checked: the run failed' },
  ],
};

test('the report is well-formed and its counts add up', () => {
  const root = parseXml(junitXml([passing, failing]));
  assert.equal(root.name, 'testsuites');
  assert.deepEqual(
    [root.attrs.tests, root.attrs.failures, root.attrs.skipped],
    ['9', '2', '2'],
    'over both files',
  );
  const [a, b] = root.children;
  assert.equal(root.children.length, 2, 'one testsuite per file');
  assert.deepEqual(
    [a!.attrs.name, a!.attrs.tests, a!.attrs.failures, a!.attrs.skipped, a!.attrs.time],
    ['smoke', '4', '0', '0', '9.800'],
  );
  assert.deepEqual(
    [b!.attrs.name, b!.attrs.file, b!.attrs.tests, b!.attrs.failures, b!.attrs.skipped],
    ['written-to-fail', '/tmp/a "quoted" & <odd> path.yaml', '5', '2', '2'],
  );
  const cases = b!.children.filter((c) => c.name === 'testcase');
  assert.deepEqual(
    cases.map((c) => c.attrs.name),
    failing.cases.map((c) => c.label),
    'one testcase per step, names intact',
  );
  const failure = cases[1]!.children[0]!;
  assert.equal(failure.name, 'failure');
  assert.equal(
    failure.attrs.message,
    failing.cases[1]!.error!.replace('\u0007', ''),
    'the step error, as XML allows it',
  );
  assert.match(failure.text, /^node validator-0, height 7\n/);
  assert.equal(cases[2]!.children[0]!.name, 'skipped');
  assert.equal(cases[2]!.children[0]!.attrs.message, 'an earlier step failed');
  const runtime = b!.children.find((c) => c.name === 'properties')!.children[0]!;
  assert.deepEqual(runtime.attrs, { name: 'runtime', value: 'docker' });
});

test('xmlEscape leaves nothing XML reads differently', () => {
  assert.equal(xmlEscape(`a<b>&"c"'d'\u0000\u001b`), 'a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
  assert.equal(xmlEscape('naïve ✔ \t\n'), 'naïve ✔ \t\n');
});
