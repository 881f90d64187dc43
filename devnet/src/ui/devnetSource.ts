/**
 * The devnet as its state file says now. The panel outlives the commands around it: `devnet
 * add` in a shell (or the panel's own add) changes devnet.json, and the Devnet is rebuilt from
 * it when its modification time changes. When the file is gone (`devnet down`, the folder
 * removed) the devnet is too, and the panel stops.
 */
import { stat } from 'node:fs/promises';
import { Layout } from '../base/layout.js';
import { Devnet } from '../devnet/devnet.js';

export class DevnetSource {
  private devnet: Devnet;
  private version: number;

  private constructor(devnet: Devnet, version: number) {
    this.devnet = devnet;
    this.version = version;
  }

  static async open(home: string): Promise<DevnetSource> {
    const version = await DevnetSource.versionOf(new Layout(home));
    return new DevnetSource(await Devnet.open(home), version ?? 0);
  }

  private static async versionOf(layout: Layout): Promise<number | null> {
    return stat(layout.stateFile).then(
      (s) => s.mtimeMs,
      () => null,
    );
  }

  /** The devnet last read (no file access): for what must not wait. */
  get last(): Devnet {
    return this.devnet;
  }

  /** The devnet now, read again when its state file changed; null when it is gone. */
  async current(): Promise<Devnet | null> {
    const version = await DevnetSource.versionOf(this.devnet.layout);
    if (version === null) return null;
    if (version !== this.version) {
      this.devnet = await Devnet.open(this.devnet.layout.home);
      this.version = version;
    }
    return this.devnet;
  }
}
