/** What the output, failures and the report call a step: its index, then its name or its kind and values. */
import type { Step } from './scenario.js';
import type { StepKind } from './schema.js';

export function stepLabel(i: number, kind: StepKind, step: Step): string {
  if (step.name !== undefined) return `steps[${i}] ${step.name}`;
  const body = step[kind] as Record<string, unknown> | unknown[];
  let what: string;
  if (kind === 'partition') what = (body as string[][]).map((g) => `[${g.join(', ')}]`).join(' ');
  else if (kind === 'expect' || kind === 'market') what = Object.keys(body)[0] ?? '';
  else if (kind === 'wait')
    what = 'blocks' in body ? `${body.blocks} blocks` : `${(body as { seconds: number }).seconds} s`;
  else if (kind === 'save' || kind === 'partitionShape') what = String(body);
  else if (kind === 'oneWay') what = `${(body as { from: string }).from} -/-> ${(body as { to: string }).to}`;
  else if (kind === 'tx') what = `${(body as { type: string }).type} from ${(body as { from: string }).from}`;
  else
    what = String((body as { node?: string; name?: string }).node ?? (body as { name?: string }).name ?? '');
  return `steps[${i}] ${kind}${what === '' ? '' : ` ${what}`}`;
}
