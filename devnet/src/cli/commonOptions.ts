/** The options of every command that works on a devnet: which one (--home), and --json output. */
import { flag, text } from '@chain-devnet/kit/cli';

export const homeOption = text("the devnet's folder (default ./.devnet, or $DEVNET_HOME)", {
  valueName: 'DIR',
});

export const jsonOption = flag(
  'print the result as one JSON object (its shape: devnet/src/json/jsonShapes.ts)',
);

/** --home, else $DEVNET_HOME, else ./.devnet. */
export function homeOf(home: string | undefined): string {
  return home ?? process.env.DEVNET_HOME ?? '.devnet';
}
