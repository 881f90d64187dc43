/**
 * The HTTP pieces of the RPC that another server beside the node reuses
 * (`@chain-devnet/node/http`; the devnet's panel): the server with the node's settings, whose
 * Node-level refusals answer `{"detail"}` too; a request body read with a byte limit (413 past
 * it); JSON answers, Koa's bare 404 and 405 among them; the lingering close after an early
 * answer; the error that carries its status and detail.
 */
export { DEFAULT_RPC_OPTIONS, type RpcOptions } from './app.js';
export { readBody } from './body.js';
export { answerUnrouted, closeOnceBodyRead, sendJson } from './edge.js';
export { HttpError } from './httpError.js';
export { createRpcServer } from './server.js';
