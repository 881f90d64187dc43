/**
 * The query of GET /tasks (docs/MARKET.md): `status`, `challenge_type`, `limit` (1 … 100,
 * default 20) and `offset` (0 … 2^53 − 1, default 0), each at most once; anything else is a
 * 400 naming the parameter.
 */
import { CHALLENGE_TYPES, type ChallengeType } from '../challenges.js';
import { TASK_STATUSES, type TaskStatus } from '../types.js';

export const LIMIT_DEFAULT = 20;
export const LIMIT_MAX = 100;

export interface ListQuery {
  readonly status?: TaskStatus;
  readonly challenge_type?: ChallengeType;
  readonly limit: number;
  readonly offset: number;
}

const DIGITS = /^(0|[1-9][0-9]{0,15})$/;

/** The query, or the refusal naming the parameter. */
export function parseListQuery(
  q: Readonly<Record<string, string | string[] | undefined>>,
): ListQuery | string {
  const one = (name: string): string | undefined | null => {
    const v = q[name];
    return Array.isArray(v) ? null : v;
  };
  for (const name of Object.keys(q)) {
    if (!['status', 'challenge_type', 'limit', 'offset'].includes(name))
      return `${name} is not a query parameter of GET /tasks (status, challenge_type, limit, offset)`;
    if (one(name) === null) return `${name} must be given at most once`;
  }
  const status = one('status');
  if (status !== undefined && !(TASK_STATUSES as readonly string[]).includes(status!))
    return `status must be one of ${TASK_STATUSES.join(', ')}`;
  const type = one('challenge_type');
  if (type !== undefined && !(CHALLENGE_TYPES as readonly string[]).includes(type!))
    return `challenge_type must be one of ${CHALLENGE_TYPES.join(', ')}`;
  const limitText = one('limit');
  const limit = limitText === undefined ? LIMIT_DEFAULT : DIGITS.test(limitText!) ? Number(limitText) : -1;
  if (limit < 1 || limit > LIMIT_MAX) return `limit must be an integer from 1 to ${LIMIT_MAX}`;
  const offsetText = one('offset');
  const offset = offsetText === undefined ? 0 : DIGITS.test(offsetText!) ? Number(offsetText) : -1;
  if (offset < 0 || !Number.isSafeInteger(offset)) return 'offset must be an integer from 0 to 2^53-1';
  return {
    ...(status === undefined ? {} : { status: status as TaskStatus }),
    ...(type === undefined ? {} : { challenge_type: type as ChallengeType }),
    limit,
    offset,
  };
}
