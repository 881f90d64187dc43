/**
 * Programs run from a program (`@chain-devnet/kit/process`): the spawner (a program in its own
 * process group, its output kept, ready on a line, stopped with its group, killed when its starter
 * ends), a command run to its end, the detached mode (programs that outlive their starter, known
 * by a pid file checked against /proc, their end recorded by a waiter) and one detached program
 * managed by its files (DetachedProgram), whether a recorded process still runs, and the one lock
 * between processes.
 */
export * from './detached.js';
export * from './detachedProgram.js';
export * from './fileLock.js';
export * from './processIdentity.js';
export * from './programs.js';
