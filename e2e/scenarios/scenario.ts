import type { Ctx } from '../lib/context.js';

/** One end-to-end scenario: its number in issue 6, a title, and the steps. */
export interface Scenario {
  readonly id: number;
  readonly title: string;
  run(ctx: Ctx): Promise<void>;
}
