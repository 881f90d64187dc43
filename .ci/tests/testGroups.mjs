/**
 * What each test file needs from the machine, the one place that says so: .ci/tests/runTests.mjs
 * runs the files of a suite concurrently within these limits (npm run test:unit, test:e2e, test).
 *
 * - swarm: runs on a Docker Swarm of this machine's engine and two engines in containers
 *   (devnet/src/harness/swarm.ts). runTests makes one such swarm before the first swarm file and
 *   takes it apart after the last (harness/sharedSwarm.ts); one swarm file runs at a time.
 * - swarm-alone: makes a swarm of its own (a killed run's clean-up) and checks the engine as it
 *   found it: alone on the engine, and only while the runner's swarm is not there (it runs first).
 * - docker: starts containers or builds images on the shared engine. Docker files run beside each
 *   other and beside a swarm file (every devnet has its own name, labels and free ports; a docker
 *   devnet's containers and bridge networks are nothing the swarm or its clean-up touches), not
 *   while the runner's swarm is being made.
 * - none: runs on processes of this machine only.
 * (The rules themselves: schedule.mjs.)
 *
 * Weight is the share of the machine a file takes, against runTests' capacity (default 7 on 2
 * cores): a file that starts a devnet, a cluster of nodes, a browser or a fresh install weighs 2,
 * so at most three such run at once, beside one light file; one whose checks need its nodes on
 * time weighs 6 (STRICT below); everything else weighs 1. A devnet file mostly waits for chain
 * time (blocks of 250-500 ms): the e2e suite's files two at a time kept the 2 cores 26 % busy
 * (median of 5 s samples, 2026-11-28), hence three.
 * A file not listed here is a light one (weight 1, a few seconds) of the kind its folder says
 * (`roots`): the kit's and node's tests never reach the engine; a devnet or e2e file is taken to use it unless
 * listed with kind none.
 */

const HEAVY = 2;
/**
 * A file whose checks hold only when its nodes get the CPU on time (no slot missed across a
 * restart of the whole devnet; 16 libp2p peers meshing within a bound): beside a light file only.
 */
const STRICT = 6;

/**
 * Each suite: the folders its test files are found in (with the kind of a file not listed), and
 * the files listed with their kind,
 * weight and about how many seconds they took alone (from artifacts/tests/timings.tsv of a CI
 * run): the longest start first, so that no long file is left to run alone at the end.
 */
export const SUITES = {
  unit: {
    roots: { 'kit/dist/tests': 'none', 'node/dist/tests': 'none', 'devnet/dist/tests': 'docker' },
    files: {
      // The swarm files' times have no swarm's making in them (the runner makes one for all, 17.7 s
      // once): timed through the runner, the five alone here at load 2-12 (2026-11-27, issue 29).
      // Before, 282, 218 and 144 s in a fresh-clone CI run, the swarm runtime's with a killed
      // run's clean-up (now swarm/killedRun.test.js) and each file with a swarm of its own. The
      // swarm runtime's and the swarm upgrade's since i29-swarmci (docs/BENCHMARKS.md), load 22-3.
      'devnet/dist/tests/runtime/swarm/swarmRuntime.test.js': { kind: 'swarm', weight: HEAVY, seconds: 185 },
      'devnet/dist/tests/runtime/swarm/imageOwnership.test.js': { kind: 'swarm', weight: HEAVY, seconds: 20 },
      'devnet/dist/tests/runtime/swarm/killedRun.test.js': {
        kind: 'swarm-alone',
        weight: HEAVY,
        seconds: 50,
      },
      'devnet/dist/tests/testkit/testnetDocker.test.js': { kind: 'docker', weight: HEAVY, seconds: 92 },
      'devnet/dist/tests/runtime/docker/dockerRuntime.test.js': {
        kind: 'docker',
        weight: STRICT,
        seconds: 94,
      },
      'devnet/dist/tests/ui/panel.docker.test.js': { kind: 'docker', weight: HEAVY, seconds: 84 },
      'devnet/dist/tests/archive/acrossRuntimes.test.js': { kind: 'docker', weight: HEAVY, seconds: 17 },
      'devnet/dist/tests/operations/resumeCli.test.js': { kind: 'docker', weight: HEAVY, seconds: 20 },
      'devnet/dist/tests/archive/saveLeavesHome.test.js': { kind: 'docker', weight: HEAVY, seconds: 20 },
      // New with the fork and the versions (2026-11-27), timed once here beside each other on a
      // loaded machine with the git build cache warm; a cold cache adds about 35 s to the first
      // test that needs the one older build (OLDER_COMMIT; the others wait for it: docs/BENCHMARKS.md).
      'devnet/dist/tests/fork/fork.test.js': { kind: 'docker', weight: HEAVY, seconds: 47 },
      'node/dist/tests/unit/builds/gitBuild.test.js': { weight: HEAVY, seconds: 40 },
      'devnet/dist/tests/versions/dockerVersion.test.js': { kind: 'docker', weight: HEAVY, seconds: 33 },
      // With devnet add --version (2026-11-27): 39 s alone here.
      'devnet/dist/tests/versions/processUpgrade.test.js': { kind: 'none', weight: HEAVY, seconds: 39 },
      'devnet/dist/tests/operations/upgradePlan.test.js': { kind: 'none', weight: HEAVY, seconds: 15 },
      'devnet/dist/tests/supervisor/autoUpgrade.test.js': { kind: 'none', weight: HEAVY, seconds: 60 },
      // New with issue 39 (2026-11-28), alone here.
      'devnet/dist/tests/supervisor/stopReaps.test.js': { kind: 'none', weight: HEAVY, seconds: 12 },
      'devnet/dist/tests/versions/refusedUpgrade.test.js': { kind: 'none', weight: HEAVY, seconds: 80 },
      // 22 s alone here (2026-11-27) with the older build's image already made.
      'devnet/dist/tests/supervisor/autoUpgradeDocker.test.js': {
        kind: 'docker',
        weight: HEAVY,
        seconds: 40,
      },
      // New with the upgrade plans (2026-11-27), timed once here beside each other.
      'node/dist/tests/system/upgrade.test.js': { weight: HEAVY, seconds: 43 },
      'node/dist/tests/system/mixedVersions.test.js': { weight: HEAVY, seconds: 33 },
      'devnet/dist/tests/scenario/upgradeSteps.test.js': { kind: 'none', weight: HEAVY, seconds: 31 },
      'devnet/dist/tests/market/docker.test.js': { kind: 'docker', weight: HEAVY, seconds: 10 },
      'devnet/dist/tests/market/process.test.js': { kind: 'none', weight: HEAVY, seconds: 8 },
      'devnet/dist/tests/runtime/process/processExitCode.test.js': { kind: 'none', weight: 1, seconds: 1 },
      'devnet/dist/tests/runtime/docker/builtImages.test.js': { kind: 'docker', weight: 1, seconds: 5 },
      'devnet/dist/tests/docs/examples.test.js': { kind: 'none', weight: HEAVY, seconds: 70 },
      'devnet/dist/tests/testkit/testnetProcess.test.js': { kind: 'none', weight: HEAVY, seconds: 55 },
      // Issue 41: network conditions on processes (alone, 2026-12-02).
      'devnet/dist/tests/operations/netZones.test.js': { kind: 'none', weight: HEAVY, seconds: 55 },
      'devnet/dist/tests/operations/netOneWay.test.js': { kind: 'none', weight: HEAVY, seconds: 39 },
      'devnet/dist/tests/archive/netArchiveProcess.test.js': { kind: 'none', weight: HEAVY, seconds: 12 },
      'devnet/dist/tests/archive/netArchiveDocker.test.js': { kind: 'docker', weight: HEAVY, seconds: 30 },
      'devnet/dist/tests/archive/netArchiveThreads.test.js': { kind: 'none', weight: HEAVY, seconds: 24 },
      'node/dist/tests/system/cluster.test.js': { weight: HEAVY, seconds: 90 },
      'devnet/dist/tests/runtime/process/processRuntime.test.js': {
        kind: 'none',
        weight: HEAVY,
        seconds: 46,
      },
      // New with the threads runtime (2026-11-28): 42 s alone here, the host's own file 3 s.
      'devnet/dist/tests/runtime/threads/threadsRuntime.test.js': {
        kind: 'none',
        weight: HEAVY,
        seconds: 42,
      },
      'devnet/dist/tests/runtime/threads/threadsHost.test.js': { kind: 'none', weight: 1, seconds: 3 },
      'devnet/dist/tests/runtime/docker/buildOnce.test.js': { kind: 'none', weight: 1, seconds: 2 },
      'devnet/dist/tests/ui/panel.process.test.js': { kind: 'none', weight: HEAVY, seconds: 35 },
      'devnet/dist/tests/scenario/run.test.js': { kind: 'none', weight: HEAVY, seconds: 30 },
      'node/dist/tests/system/stateSyncJoin.test.js': { weight: HEAVY, seconds: 24 },
      // New with issue 39 (2026-12-01): 22 s here beside two other files.
      'node/dist/tests/system/stateSyncSister.test.js': { weight: HEAVY, seconds: 22 },
      'devnet/dist/tests/install/freshClone.test.js': { kind: 'none', weight: HEAVY, seconds: 30 },
      'devnet/dist/tests/archive/failedRun.test.js': { kind: 'none', weight: HEAVY, seconds: 20 },
      // A stranger's archive refused (issue 39): one devnet saved, restored twice; 12 s alone here.
      'devnet/dist/tests/archive/untrusted.test.js': { kind: 'none', weight: HEAVY, seconds: 12 },
      'devnet/dist/tests/operations/exitedAtStart.test.js': { kind: 'none', weight: HEAVY, seconds: 6 },
      'devnet/dist/tests/install/installOutside.test.js': { kind: 'none', weight: HEAVY, seconds: 20 },
      // New with issue 41 (disks): 4 validators on processes, a full disk freed, a kill losing unsynced writes (24 s alone).
      'devnet/dist/tests/testkit/diskProcess.test.js': { kind: 'none', weight: HEAVY, seconds: 24 },
      'devnet/dist/tests/testkit/diskTmpfsProcess.test.js': { kind: 'none', weight: HEAVY, seconds: 20 },
      'devnet/dist/tests/testkit/diskTmpfsDocker.test.js': { kind: 'docker', weight: HEAVY, seconds: 20 },
      // New with issue 42 (time): chainTimeSuite on each runtime, 4 validators and the market held
      // 30 s, re-timed, jumped past a TTL and a task's deadline, mined to an epoch and 250 blocks
      // with a stopped validator, skewed ±10 s (four side by side, 2026-12-02: 138, 136, 145 s, and
      // the swarm's 177 s with a swarm of its own made, 28 s of it).
      'devnet/dist/tests/testkit/chainTimeProcess.test.js': { kind: 'none', weight: HEAVY, seconds: 138 },
      'devnet/dist/tests/testkit/chainTimeThreads.test.js': { kind: 'none', weight: HEAVY, seconds: 136 },
      'devnet/dist/tests/testkit/chainTimeDocker.test.js': { kind: 'docker', weight: HEAVY, seconds: 145 },
      'devnet/dist/tests/testkit/chainTimeSwarm.test.js': { kind: 'swarm', weight: HEAVY, seconds: 150 },
      // The driver held, mined and re-timed on a ManualTicker, with a real store (8 s alone).
      'node/dist/tests/unit/consensus/driver/pace.test.js': { seconds: 8 },
      // Issue 43: the simulation, one process busy on one core for its whole run (timed beside a
      // busy-loop CI run, 2026-12-02): seeds of 4 validators to 120 heights, faults, the CLI on it.
      'node/dist/tests/unit/sim/simulate.test.js': { weight: HEAVY, seconds: 13 },
      'node/dist/tests/unit/sim/faults.test.js': { weight: HEAVY, seconds: 8 },
      'node/dist/tests/unit/sim/simRpc.test.js': { weight: HEAVY, seconds: 9 },
      'node/dist/tests/unit/consensus/record/replay.test.js': { weight: HEAVY, seconds: 5 },
      // A process devnet of 4 that records, is saved and replayed node by node (2026-12-03).
      'devnet/dist/tests/operations/replay.test.js': { kind: 'none', weight: HEAVY, seconds: 45 },
      'devnet/dist/tests/testkit/simTestnet.test.js': { kind: 'none', weight: HEAVY, seconds: 20 },
      'devnet/dist/tests/scenario/sim/simTest.test.js': { kind: 'none', weight: HEAVY, seconds: 17 },
      'devnet/dist/tests/scenario/sim/seedSearch.test.js': { kind: 'none', weight: HEAVY, seconds: 14 },
      // The CI's seed run: two processes, each 200 seeds on one core (44 s on a calm machine).
      'devnet/dist/tests/scenario/sim/seedRun.test.js': { kind: 'none', weight: 4, seconds: 44 },
      // The devnet's chain control files and the status line, no node (1 s).
      'devnet/dist/tests/operations/chainTimeFiles.test.js': { kind: 'none', seconds: 1 },
      // The time steps checked with the file, no devnet (1 s).
      'devnet/dist/tests/scenario/timeSteps.test.js': { kind: 'none', seconds: 1 },
      'node/dist/tests/system/safety.test.js': { weight: HEAVY, seconds: 19 },
      'devnet/dist/tests/testkit/pauseProcess.test.js': { kind: 'none', weight: HEAVY, seconds: 18 },
      'devnet/dist/tests/testkit/pauseDocker.test.js': { kind: 'docker', weight: HEAVY, seconds: 40 },
      'node/dist/tests/unit/sync/block/syncLiars.test.js': { weight: HEAVY, seconds: 17 },
      // New with issue 39 (2026-12-01): a 2,000,000-entry bomb written and refused, two 25,000-account chains.
      'node/dist/tests/unit/sync/state/stateSyncBounds.test.js': { weight: HEAVY, seconds: 30 },
      'devnet/dist/tests/testkit/load.test.js': { kind: 'none', weight: HEAVY, seconds: 14 },
      'devnet/dist/tests/monitoring/dashboards.test.js': { kind: 'none', weight: HEAVY, seconds: 11 },
      'devnet/dist/tests/scenario/steps.test.js': { kind: 'none', weight: HEAVY, seconds: 11 },
      'node/dist/tests/unit/crypto/verifierAgreement.test.js': { weight: HEAVY, seconds: 9 },
      'node/dist/tests/system/crash.test.js': { weight: HEAVY, seconds: 12 },
      'node/dist/tests/unit/p2p/gossip.test.js': { weight: STRICT, seconds: 20 },
      'node/dist/tests/unit/faults/faultInjection.test.js': { weight: HEAVY, seconds: 8 },
      'devnet/dist/tests/operations/addStateSync.test.js': { kind: 'none', weight: HEAVY, seconds: 7 },
      'devnet/dist/tests/testkit/teardown.test.js': { kind: 'none', weight: HEAVY, seconds: 6 },
      'node/dist/tests/system/forgedTwins.test.js': { weight: HEAVY, seconds: 5 },
      'node/dist/tests/system/marketCrash.test.js': { weight: HEAVY, seconds: 3 },
      'node/dist/tests/unit/bin/cli.test.js': { weight: HEAVY, seconds: 12 },
      'devnet/dist/tests/cli/cli.test.js': { kind: 'none', weight: HEAVY, seconds: 5 },
      // Light files that keep a core busy for seconds: started before the quick ones.
      'node/dist/tests/unit/chain/properties.test.js': { weight: 1, seconds: 6 },
      'node/dist/tests/unit/rpc/rpcFuzz.test.js': { weight: 1, seconds: 6 },
      'node/dist/tests/unit/crypto/batchVerify.test.js': { weight: 1, seconds: 5 },
      'node/dist/tests/unit/crypto/wycheproof.test.js': { weight: 1, seconds: 5 },
      'node/dist/tests/unit/p2p/redial.test.js': { weight: 1, seconds: 5 },
      'devnet/dist/tests/cli/cliCommands.test.js': { kind: 'none', weight: 1, seconds: 5 },
      'node/dist/tests/unit/crypto/crypto.test.js': { weight: 1, seconds: 4 },
      'node/dist/tests/unit/consensus/heightConsensus.test.js': { weight: 1, seconds: 4 },
      // Issue 41: the disk fault layer on real level; a real full tmpfs (root; it mounts and unmounts one).
      'node/dist/tests/unit/disk/diskFaults.test.js': { weight: 1, seconds: 1 },
      'node/dist/tests/unit/disk/privvalDisk.test.js': { weight: 1, seconds: 1 },
      'node/dist/tests/unit/disk/realFullDisk.test.js': { weight: 1, seconds: 1 },
    },
  },
  e2e: {
    roots: { 'e2e/dist': 'docker' },
    files: {
      'e2e/dist/swarm.test.js': { kind: 'swarm', weight: HEAVY, seconds: 199 },
      'e2e/dist/docker.test.js': { kind: 'docker', weight: HEAVY, seconds: 150 },
      'e2e/dist/process.test.js': { kind: 'none', weight: HEAVY, seconds: 122 },
      // The consensus scenarios on the simulation (2026-12-03): 23-47 s here, busy runner beside it.
      'e2e/dist/sim.test.js': { kind: 'none', weight: HEAVY, seconds: 30 },
      'e2e/dist/faultsUnderLoad.docker.test.js': { kind: 'docker', weight: HEAVY, seconds: 32 },
      'e2e/dist/faultsUnderLoad.process.test.js': { kind: 'none', weight: HEAVY, seconds: 29 },
      // The upgrade rehearsal (issue 28), timed once each here alone with the git build cache warm
      // (a cold cache adds about 35 s to the first of them; the others wait for that build). Swarm's at load 20.
      'e2e/dist/upgrade.swarm.test.js': { kind: 'swarm', weight: HEAVY, seconds: 86 },
      'e2e/dist/upgrade.docker.test.js': { kind: 'docker', weight: HEAVY, seconds: 60 },
      // Both example files (upgrade-plan 42 s, rolling-upgrade 14 s here alone).
      'e2e/dist/upgradeScenario.process.test.js': { kind: 'none', weight: HEAVY, seconds: 57 },
      'e2e/dist/upgrade.process.test.js': { kind: 'none', weight: HEAVY, seconds: 28 },
    },
  },
};
