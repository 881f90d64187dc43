/**
 * The header that carries the panel's secret on every /api request (panel/secret.ts keeps the
 * secret). A constant of its own so that the browser's page, the panel's server and the commands
 * that start the panel share it without the page pulling in Node's crypto.
 */
export const SECRET_HEADER = 'x-devnet-panel-secret';
