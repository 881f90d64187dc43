/**
 * One RpcClient over several nodes of a chain: each call goes to the node that answered last, and
 * to the next one when it gives no answer at all (RpcUnreachableError: refused, reset, a name
 * that does not resolve, the wait run out); any answer, an HTTP error included, is that node's
 * and is returned as it is. For a program that must keep working while one node is stopped,
 * partitioned or unreachable (the market's sample worker: a devnet's e2e run saw its one node's
 * name stop resolving in its container for minutes while every other name did).
 */
import { RpcUnreachableError } from './jsonHttp.js';
import { RpcClient } from './rpcClient.js';

/** Told when the calls move to another node: which, from which, and why the last one failed. */
export type FailoverListener = (to: string, from: string, why: string) => void;

/** An RpcClient that fails over between `urls` (one: a plain RpcClient). */
export function failoverRpc(
  urls: readonly string[],
  timeoutMs?: number,
  onSwitch?: FailoverListener,
): RpcClient {
  if (urls.length === 0) throw new Error('failoverRpc needs at least one URL');
  const clients = urls.map((u) => new RpcClient(u, timeoutMs));
  if (clients.length === 1) return clients[0]!;
  let current = 0;
  const call = async (method: PropertyKey, args: unknown[]): Promise<unknown> => {
    let last: unknown;
    for (let i = 0; i < clients.length; i++) {
      const at = (current + i) % clients.length;
      const c = clients[at] as unknown as Record<PropertyKey, (...a: unknown[]) => Promise<unknown>>;
      try {
        const answer = await c[method]!.apply(c, args);
        // Said once a move, so that a log tells which node's answers (its commits) a program used.
        if (at !== current)
          onSwitch?.(urls[at]!, urls[current]!, String((last as Error | undefined)?.message));
        current = at;
        return answer;
      } catch (e) {
        if (!(e instanceof RpcUnreachableError)) throw e;
        last = e;
      }
    }
    throw last;
  };
  return new Proxy(clients[0]!, {
    get(target, prop, receiver) {
      const value = Reflect.get(clients[current]!, prop, receiver);
      if (typeof value !== 'function' || prop === 'constructor') return Reflect.get(target, prop);
      return (...args: unknown[]) => call(prop, args);
    },
  });
}
