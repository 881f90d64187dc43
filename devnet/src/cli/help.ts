/** The help text of every devnet command. */
export const MAIN_HELP = `devnet — a multi-validator chain devnet with Prometheus and Grafana, on Docker, a Docker Swarm or local processes

Usage: devnet <command> [options]     (devnet <command> --help for its options)

  up          bring up N validators (+ monitoring) and wait for the first final block
  status      every node: RPC URL, height, last hash, peers, validator state, up or not
  logs        a node's log (--tail N, -f to follow)
  add         a new node joins the running devnet (--stake makes it a validator)
  stop | start | kill | pause | resume | restart NODE
              stop gracefully, start again, SIGKILL, freeze, unfreeze, stop+start
  disconnect | connect NODE
              cut a node off from the others, and back
  tx          sign and send a transaction with a devnet key: send, stake, unstake, delegate,
              undelegate, unjail, update-validator
  ui          print the panel's link (the devnet in a browser; --start starts it again)
  down        stop and remove everything the devnet made (--keep-data keeps its files)
  compose     write docker-compose.yml and prometheus.yml for the same devnet under compose
  k8s         write Kubernetes manifests for the same devnet (untested against a live cluster)
  test        run scenario files (faults, load, assertions; docs/SCENARIOS.md), each on its own
              devnet; --generate N --seed S writes random ones

Common options:
  --home DIR  the devnet's folder (default ./.devnet, or $DEVNET_HOME)
  --json      machine-readable output (up, status, add, tx, down)

Ports from --base-port P (default 8000), all on 127.0.0.1: node i has RPC P+i and p2p P+1000+i;
Prometheus P+1090, Grafana P+1091, the panel P+1092, the task market (--market) P+1093.
`;

export const COMMAND_HELP: Record<string, string> = {
  test: `devnet test FILE… [--runtime R] [--junit OUT.xml] [--keep] [--logs-dir DIR]
devnet test --generate N --seed S [--out DIR]
devnet test --schema

Runs each scenario file (YAML or JSON: a manifest, a load, a timeline of steps; docs/SCENARIOS.md)
on a devnet of its own, printing each step as it runs, then checks the chain's invariants and
tears the devnet down. Every file is checked before the first devnet starts.

  --runtime R           auto, docker or process: overrides the file's and its manifest's
  --junit OUT.xml       a JUnit report: one testsuite per file, one testcase per step
  --keep                leave each devnet running (its home is printed; devnet down --home removes it)
  --logs-dir DIR        where a failed run keeps every node's log (default ./testkit-logs)
  --generate N          write N random scenarios (faults at random heights under load, valid by
                        construction) to --out DIR (default .), named from the seed
  --seed S              the generator's seed: the same seed writes the same files
  --schema              print the scenario file's JSON Schema (devnet/schema/scenario.schema.json)

Exit status: 0 every scenario passed, 1 one failed, 2 a bad file or flag (nothing ran).
`,
  up: `devnet up [options]

  --validators N        number of validators (default 4; at most 64)
  --runtime R           auto (default: docker when an engine answers, else process), docker, process,
                        swarm (the Docker engine must be a swarm manager; devnet/README.md, "swarm")
  --registry R          swarm: push the node image to registry R; every machine pulls it from there
                        (default: docker save | load into each machine whose engine devnet reaches)
  --block-time D        time between blocks, e.g. 300ms, 2s (default 1s)
  --epoch-length N      blocks per epoch (default: the devnet's 100)
  --base-port P         node i: RPC P+i, p2p P+1000+i; Prometheus P+1090, Grafana P+1091,
                        the panel P+1092 (default 8000)
  --seed S              every key from S (default "devnet"): same seed, same keys and addresses
  --manifest FILE       a JSON or YAML topology (devnet/README.md); flags override it
  --no-monitoring       no Prometheus, no Grafana
  --market              the task market (docs/MARKET.md) at P+1093 and a sample worker, their
                        accounts (market, market-worker) funded at genesis
  --no-ui               no panel (by default one runs on P+1092; its link is printed)
  --home DIR            where the devnet keeps its files (default ./.devnet)
  --json                print the result as JSON

Returns once every node has a final block; the devnet keeps running in the background.
`,
  status: `devnet status [--json] [--home DIR]

Per node: RPC URL, run state, height, last hash, peers, validator status (ACTIVE, INACTIVE,
JAILED), and whether it is disconnected; then the monitoring URLs and the panel's address
(devnet ui prints its link, which carries its secret).
`,
  ui: `devnet ui [--start] [--json] [--home DIR]
devnet ui --serve [--home DIR]

Prints the link of the devnet's panel: every node's state, the blocks as they come, the
validators, charts and logs, live, with buttons for the node operations, transfers and adding
a node. The link carries the panel's secret after # (never sent to a server): share it like a
password. The panel listens on 127.0.0.1 at P+1092 only.

  --start     start the panel if it is not running (devnet up --no-ui started none), then print
  --serve     run the panel in this terminal instead of in the background (Ctrl-C stops it)
`,
  logs: `devnet logs [NODE] [-f|--follow] [--tail N] [--home DIR]

Prints a node's log (default validator-0), or the task market's (market, market-worker). --tail N prints the last N lines; -f keeps printing
new lines until interrupted.
`,
  add: `devnet add [--name NAME] [--stake AMOUNT] [--fund-from ACCOUNT] [--placement MACHINE] [--json] [--home DIR]

Starts a new node (default name validator-<i>) that syncs from its peers. With --stake (e.g.
100coin, the devnet's minimum stake), the node's account is funded from a developer account
(default account-0) and sends STAKE: it becomes ACTIVE at the next eligible epoch boundary.
On the swarm runtime --placement runs it on that machine (a swarm node's name or id; default
round robin).
`,
  node: `devnet stop|start|kill|pause|resume|restart|disconnect|connect NODE [--home DIR]

  stop        graceful stop (SIGTERM; its data stays)
  start       start a stopped node; it catches up from its peers
  kill        SIGKILL (a crash)
  pause       freeze the node (SIGSTOP, or the engine's pause)
  resume      unfreeze it
  restart     stop, then start
  disconnect  cut the node off from every other node (its RPC stays reachable)
  connect     undo disconnect
`,
  tx: `devnet tx <kind> --from NAME_OR_KEY [options] [--node NODE] [--no-wait] [--json] [--home DIR]

  send              --to ACCOUNT_OR_ADDRESS --amount A [--memo TEXT]
  stake             --amount A [--name N] [--commission RATE] [--reward-address ADDR]
  unstake           --amount A
  delegate          --validator NODE_OR_ADDRESS --amount A
  undelegate        --validator NODE_OR_ADDRESS --amount A
  unjail            (pays the unjail fee)
  update-validator  [--name N] [--commission RATE] [--reward-address ADDR]

--from is a funded account (account-0 …), a node name (its validator key), or a 64-hex private
key; never the task market's accounts (market, market-worker: their keys are the market's).
Amounts: 1.5coin, 100coins, 2500wei. Waits for the receipt and prints it.
`,
  compose: `devnet compose [--validators N] [--seed S] [--block-time D] [--base-port P] [--output DIR]

Writes docker-compose.yml and prometheus.yml (into --output, default .) for a compose devnet with
the same keys and port plan as devnet up with that seed. The repository's own files are the
defaults (4 validators, seed devnet, 1s blocks, base port 8000).
`,
  k8s: `devnet k8s [--manifest FILE] [--validators N] [--seed S] [--block-time D] [--epoch-length N]
          [--image IMAGE] [--namespace NS] [--storage SIZE] [--no-monitoring] [--output FILE]

Writes one YAML file (default devnet.k8s.yaml) for kubectl apply: the devnet devnet up would
bring up with the same manifest and flags (same keys, genesis and node command line). Per node a
StatefulSet (its data on a volume claim of --storage, default 1Gi), a headless Service named
after the node, a ConfigMap with its node.json and a Secret with its keys; a ConfigMap with the
genesis; Prometheus (Deployment, Service, ConfigMap) unless --no-monitoring. --image is the node
image where the cluster pulls it from (default chain-devnet/chain-node:latest: build it with
docker build -f node/Dockerfile -t IMAGE . after npm run build, and push it). Checked offline
against Kubernetes' schemas; not tested against a live cluster.
`,
  down: `devnet down [--keep-data] [--json] [--home DIR]

Stops and removes every process, container, network and volume of the devnet, and its folder
(unless --keep-data).
`,
};
