/**
 * JUnit XML of scenario runs, for CI: one testsuite per file, one testcase per step, plus the
 * devnet's start, the load and the invariants; a failure's message is the step's error (it names
 * the step, the node and the height).
 */
import type { ScenarioResult } from './run.js';

/** Text safe in XML content and attributes (and no characters XML 1.0 forbids). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function junitXml(results: readonly ScenarioResult[]): string {
  const count = (r: ScenarioResult, o: string) => r.cases.filter((c) => c.outcome === o).length;
  const total = (o: string) => results.reduce((n, r) => n + count(r, o), 0);
  const tests = results.reduce((n, r) => n + r.cases.length, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="devnet test" tests="${tests}" failures="${total('failed')}" skipped="${total('skipped')}" time="${seconds(results.reduce((n, r) => n + r.ms, 0))}">`,
  ];
  for (const r of results) {
    lines.push(
      `  <testsuite name="${xmlEscape(r.name)}" file="${xmlEscape(r.source)}" tests="${r.cases.length}" failures="${count(r, 'failed')}" errors="0" skipped="${count(r, 'skipped')}" time="${seconds(r.ms)}">`,
    );
    if (r.runtime !== null)
      lines.push(`    <properties><property name="runtime" value="${xmlEscape(r.runtime)}"/></properties>`);
    for (const c of r.cases) {
      const open = `    <testcase name="${xmlEscape(c.label)}" classname="${xmlEscape(r.name)}" time="${seconds(c.ms)}"`;
      if (c.outcome === 'passed') lines.push(`${open}/>`);
      else if (c.outcome === 'skipped')
        lines.push(`${open}>`, `      <skipped message="${xmlEscape(c.reason ?? '')}"/>`, '    </testcase>');
      else {
        const where = c.node === undefined ? '' : `node ${c.node}, height ${c.height ?? 'unknown'}`;
        // Its place on the devnet's timeline: the kept folder's timeline.log, or the devnet (or its
        // archive restored) asked from the step's start.
        const timeline =
          c.at === undefined
            ? ''
            : `\ntimeline: from ${c.at} (timeline.log of the kept logs, or devnet logs --all --since ${c.at})`;
        const body = `${where === '' ? '' : `${where}\n`}${c.error ?? ''}${timeline}`;
        lines.push(
          `${open}>`,
          `      <failure message="${xmlEscape(c.error ?? 'failed')}" type="${where === '' ? 'failure' : 'TestkitError'}">${xmlEscape(body)}</failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
