/**
 * The one rule for a name in a devnet (a node, a service, an account, a scenario's group): 1 to
 * 63 lowercase letters, digits and dashes, not starting with a dash. A name becomes a folder
 * (nodes/<name>/), a file (logs/<name>.log), a container and a DNS label, so nothing else may
 * pass: no `/`, no `.`, no `..`.
 */
export const NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
const NAME = new RegExp(NAME_PATTERN);

export const isName = (text: string): boolean => NAME.test(text);

/**
 * Names a node may not take, with why: each already means something where node names go (a
 * command's NODE, a log on the timeline, a service's home). The services' are operations/market.ts's.
 */
export const RESERVED_NAMES: Readonly<Record<string, string>> = {
  all: 'that word means every node',
  devnet: "it names the devnet's own log on its timeline",
  market: "it names the task market's service",
  'market-worker': "it names the task market's worker",
};
