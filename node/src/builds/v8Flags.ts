/**
 * The V8 flags a devnet starts the node and the task market with on the process runtime; the
 * node image (node/Dockerfile: its ENTRYPOINT, and the code caches it checks) names the same
 * (node/tests/unit/harness/v8Flags.test.ts checks that they agree). V8 refuses a code cache made
 * under other flags, so the build makes those programs' caches under these (node/scripts/
 * codeCache.mjs); a node started by hand without them compiles its bundle (about 90 ms of CPU
 * more) and runs the same. The devnet command and its panel run without: people start it.
 *
 * `--max-semi-space-size=4`: V8 grows each of the young generation's two semi-spaces to 16 MiB as
 * soon as a program allocates quickly, which a node does while it starts, and keeps them: 32 MiB
 * of an idle node's 84 MiB of its own memory were an empty young generation. The smaller the
 * semi-spaces, the more often a scavenge runs: at 1 MiB (the first cap) garbage collection was
 * 18-21% of a node's CPU among 21 validators; 4 MiB took about a fifth off their CPU at start-up
 * (21 up in 16.4 s instead of 20.7 s) and 2-17% in steady state, for 6-7 MiB more resident a
 * node; measured in docs/BENCHMARKS.md ("A 4 MiB young generation"). The old generation is not
 * capped: a node's state may grow, and a cap would turn a large state into a crash instead of a
 * slower collection.
 *
 * `--heap-growing-percent=10`: after each full collection V8 lets the old generation grow by a
 * factor of its own choosing (up to about 2 on a machine with memory to spare) before the next;
 * a node whose objects live for a block or two fills that room with garbage between collections.
 * With 21 validators a node's heap swung between 35 and 69 MiB committed (25 to 30 MiB of it
 * live); at 10% it stayed at 35 to 38 MiB, with more full collections (5 to 7 instead of 2 to 3 in
 * 4 minutes) and no CPU difference measurable beside the young generation's scavenges
 * (docs/BENCHMARKS.md, "Second pass"). Its cost is at start, while the heap grows: a node among
 * 21 starting together used 22% more CPU until every node was final (4.33 against 3.55 s); among
 * 4 no difference. A cap on the old generation would still be wrong (above); this only has it
 * collected sooner.
 */
export const NODE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=10'];

/**
 * A node thread's young generation (the threads runtime's worker `resourceLimits`), as a node
 * process's under NODE_V8_FLAGS: V8 takes a process's --max-semi-space-size for its main isolate
 * only, and gives a worker's the default resource limit (48 MiB here, 16 MiB semi-spaces) unless
 * it is told one. V8's young generation is three semi-spaces (two, and the new large-object space
 * as large as one).
 */
export const THREAD_YOUNG_GENERATION_MB =
  3 * Number(NODE_V8_FLAGS.find((f) => f.startsWith('--max-semi-space-size='))?.split('=')[1] ?? 16);

/**
 * The environment added to theirs: glibc's malloc makes an arena per thread that allocates (up to
 * 8 per core), and a node's threads (V8's helpers, libuv's pool, LevelDB's) each kept one with its
 * free pages: 2 arenas took 7 MiB off an idle node's resident memory, at no CPU cost measured
 * (docs/BENCHMARKS.md). Other C libraries ignore it.
 */
export const NODE_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
