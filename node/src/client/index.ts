/**
 * The node's RPC as a program uses it (`@chain-devnet/node/client`): the client, the typed shape
 * of every answer, and a transaction builder.
 */
export type * from '../rpc/answers.js';
export { failoverRpc } from './failover.js';
export {
  type HttpAnswer,
  type HttpRequest,
  type HttpTransport,
  JsonHttpClient,
  NODE_HTTP,
} from './jsonHttp.js';
export * from './rpcClient.js';
export * from './txBuilder.js';
export * from './verifiedSnapshot.js';
