/**
 * The testkit's failure: every failed wait, assertion or invariant says which step it was, on
 * which node, at which height, what was expected and what was found, in its message and as
 * fields (for a scenario runner's report, e.g. JUnit).
 */

export interface FailureFacts {
  /** The node the check was made on, or a description when it spans nodes ("every node"). */
  readonly node: string;
  /** The node's height when the check was made; null when it did not answer. */
  readonly height: number | null;
  readonly expected: string;
  readonly found: string;
}

export class TestkitError extends Error {
  override readonly name = 'TestkitError';
  readonly step: string;
  readonly node: string;
  readonly height: number | null;
  readonly expected: string;
  readonly found: string;

  constructor(step: string, f: FailureFacts, options?: { cause?: unknown }) {
    super(
      `step "${step}": ${f.node} ${f.height === null ? '(height unknown: not answering)' : `at height ${f.height}`}: ` +
        `expected ${f.expected}; found ${f.found}`,
      options,
    );
    this.step = step;
    this.node = f.node;
    this.height = f.height;
    this.expected = f.expected;
    this.found = f.found;
  }
}

/**
 * An error thrown inside a step that is not a TestkitError (a scenario's own assert, a node that
 * refused an operation): the step's name is put in front of its message; the cause is kept.
 */
export class StepError extends Error {
  override readonly name = 'StepError';
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(`step "${step}": ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A testkit call with arguments it cannot use (a scenario file's typo): what was wrong and what it takes. */
export class TestkitUsageError extends Error {
  override readonly name = 'TestkitUsageError';
}
