/** The one bounded polling wait (`@chain-devnet/kit/wait`): its timeout names what it waited for, what it saw last and the last error. */
export * from './wait.js';
