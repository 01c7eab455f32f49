import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type LocalDiscovery,
  localDiscoveryFolder,
  localDiscoveryPath,
  readLocalDiscovery,
  writeLocalDiscovery,
} from '../../localDiscovery';

/**
 * What `svc dev` leaves for `svc publish`: where its store is (`url`, the messenger's origin
 * `http://127.0.0.1:<port>`), its publish token, the process serving it, and the app it runs (`svc publish` picks the
 * one that runs a package's app when several run).
 */
export type StoreDiscovery = LocalDiscovery & {
  mini_app_id?: string;
  /**
   * Its `--state` file (its links followed): a second svc dev on it is refused at start even when the file's lock
   * was removed by hand.
   */
  state?: string;
};

/** `$SVC_STATE_DIR/dev/store-<port>.json` (default `~/.svc-sdk`): outside every project, readable by this user only. */
const discoveryPath = (url: string) => localDiscoveryPath(`store-${new URL(url).port || '80'}`);

/** Writes it (mode 600 in a mode 700 folder). */
export function writeStoreDiscovery(discovery: StoreDiscovery): Promise<void> {
  return writeLocalDiscovery(discoveryPath(discovery.url), discovery);
}

/** Removes it, when it is still this process's. */
export async function removeStoreDiscovery(url: string, pid = process.pid): Promise<void> {
  const found = await readStoreDiscovery(url);
  if (found?.pid === pid) await rm(discoveryPath(url), { force: true });
}

/** The store of the `svc dev` running at `url`, or undefined when none runs there (a stale file is ignored). */
export async function readStoreDiscovery(url: string): Promise<StoreDiscovery | undefined> {
  const found = await readLocalDiscovery<StoreDiscovery>(discoveryPath(url));
  return found && new URL(found.url).origin === new URL(url).origin ? found : undefined;
}

/** The stores of every `svc dev` running on this machine for this user, by port. */
export async function listStoreDiscoveries(): Promise<StoreDiscovery[]> {
  const folder = localDiscoveryFolder();
  const names = await readdir(folder).catch(() => [] as string[]);
  // A file names the port of the store it leads to: one that leads to another port is not what it says.
  const found = await Promise.all(
    names
      .filter((name) => /^store-\d+\.json$/.test(name))
      .map(async (name) => {
        const store = await readLocalDiscovery<StoreDiscovery>(join(folder, name));
        return store && `store-${new URL(store.url).port || '80'}.json` === name ? store : undefined;
      }),
  );
  return found.filter((store): store is StoreDiscovery => store !== undefined).sort((a, b) => (a.url < b.url ? -1 : 1));
}
