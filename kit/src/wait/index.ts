/** The one bounded polling wait (`@chain-devnet/kit/wait`): its timeout names what it waited for, what it saw last and the last error; and a wall-clock bound scaled to the machine (slowness). */

export * from './slowness.js';
export * from './wait.js';
