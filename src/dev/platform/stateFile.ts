import { randomBytes } from 'node:crypto';
import { constants, fdatasync, fsync } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { DevState } from '../devContract';
import { isRealmKey, type RealmPrivateKey } from './createIdentityProvider';
import { lockFile } from './lockFile';
import { listStoreDiscoveries } from './store/storeDiscovery';
import type { SigningSecrets } from './signingSecrets';
import { checkState, stateProblems } from './stateSchema';
import type { StoredPatch } from '../withPatches';
import { applyPatches } from './trackChanges';
import { statRegularFile } from '../../package/statRegularFile';
import { DevAppError } from './readAppDir';
import { foreignFileProblem } from '../../package/foreignFileProblem';
import { printable } from '../../manifest/printable';

/**
 * The first line of a state file: the whole state, the signing secrets and the MCP token (which the page never
 * receives).
 */
interface Snapshot {
  svc_dev_state: 1;
  state: DevState;
  secrets?: SigningSecrets;
  /** The MCP endpoint's bearer token, kept so that the clients configured with it go on working after a restart. */
  mcp_token?: string;
  /** The messenger page's launch token, kept so that an open page follows a restart. */
  control_token?: string;
  /** The realm's signing key, kept so that a backend that fetched the realm's keys verifies tokens after a restart. */
  realm_key?: RealmPrivateKey;
}

/** What the state file keeps besides the state: its secrets. @internal */
export interface KeptSecrets {
  secrets: SigningSecrets;
  mcp_token?: string;
  control_token?: string;
  realm_key?: RealmPrivateKey;
}

/** A state file opened for appending. @internal */
export interface StateFile {
  /** The file's path, its links followed: the one its lock and the store's discovery file name. */
  path: string;
  /** The state as saved (the journal replayed), or undefined for a new file. */
  state?: DevState;
  /** The signing secrets kept with it, or undefined when the file had none. */
  secrets?: SigningSecrets;
  /** The MCP token kept with it, or undefined when the file had none. */
  mcpToken?: string;
  /** The page's launch token kept with it, or undefined when the file had none. */
  controlToken?: string;
  /** The realm's signing key kept with it, or undefined when the file had none (or one of another shape). */
  realmKey?: RealmPrivateKey;
  /**
   * Writes the whole state as one snapshot (the journal compacted) and makes the file ready to append to. Called
   * once, at start, with what writes the snapshot then and after a failed write.
   */
  compact(snapshot: () => { state: DevState } & KeptSecrets): Promise<void>;
  /**
   * Appends one journal line (ending in a newline) and resolves once it is on disk (fsync). Lines appended while a
   * write is in flight go to disk together in the next one.
   */
  append(line: string): Promise<void>;
  /**
   * Makes the next write the whole state, one snapshot, instead of a journal line: after a reset, what was cleared
   * leaves the file at once rather than at the next start.
   */
  rewriteNext(): void;
  /** Waits for the writes in flight and closes the file. */
  close(): Promise<void>;
}

const isSecrets = (value: unknown): value is SigningSecrets => {
  const s = value as SigningSecrets | undefined;
  return (
    typeof s?.current === 'string' &&
    s.current.length > 0 &&
    (s.previous === undefined || (typeof s.previous.secret === 'string' && Number.isFinite(s.previous.until)))
  );
};

/**
 * Reads a state file: a snapshot line, then journal lines (the first `journalLines` of them when given); a last line
 * cut short (never acknowledged) is dropped.
 */
function parseStateFile(
  text: string,
  path: string,
  journalLines = Number.POSITIVE_INFINITY,
): { state: unknown; secrets?: SigningSecrets; mcpToken?: string; controlToken?: string; realmKey?: RealmPrivateKey } {
  const whole = (() => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  })();
  // A file written by an earlier version: the state alone, pretty-printed.
  if (whole && !('svc_dev_state' in whole)) return { state: whole };
  const lines = text.split('\n');
  // The text after the last newline is either empty or a line cut short by a kill: never acknowledged.
  const complete = lines.slice(0, -1);
  let head: Snapshot;
  try {
    head = JSON.parse(complete[0] ?? '') as Snapshot;
  } catch {
    throw new Error(`--state ${path} is not valid JSON: fix it or delete it to start fresh.`);
  }
  if (head?.svc_dev_state !== 1 || typeof head.state !== 'object')
    throw new Error(`--state ${path} is not a svc dev state file: pass another path or delete it.`);
  const state = head.state as unknown as Record<string, unknown>;
  let secrets = head.secrets;
  for (const [i, line] of complete.slice(1, journalLines + 1).entries()) {
    if (!line) continue;
    let record: { p?: StoredPatch[]; secrets?: SigningSecrets };
    try {
      record = JSON.parse(line) as typeof record;
      // Each line svc dev writes is {"p": [patches]} or {"secrets": …}: anything else was not written by it.
      const entry = record !== null && typeof record === 'object' && !Array.isArray(record);
      if (!entry || !(Array.isArray(record.p) || isSecrets(record.secrets)))
        throw new Error('it is not a journal entry, {"p": [...]} or {"secrets": {...}}');
      if (record.p) applyPatches(state, record.p);
    } catch (error) {
      // JSON.parse's own words quote the line, which may hold the signing secret or the app's data, and control
      // characters that would act on the terminal: only where it breaks is said.
      const at = /at position (\d+)/.exec((error as Error).message)?.[1];
      const why =
        error instanceof SyntaxError
          ? `it is not valid JSON${at === undefined ? '' : ` from character ${Number(at) + 1}`}`
          : printable((error as Error).message);
      throw new Error(
        `--state ${path} line ${i + 2} is damaged (${why}): delete that line and the ones after it to keep the state before it, or delete the file.`,
      );
    }
    if (record.secrets) secrets = record.secrets;
  }
  // A token of another shape (edited by hand) is not kept: the platform makes a new one.
  const mcpToken =
    typeof head.mcp_token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(head.mcp_token) ? head.mcp_token : undefined;
  const controlToken =
    typeof head.control_token === 'string' && /^[A-Za-z0-9_-]{32}$/.test(head.control_token)
      ? head.control_token
      : undefined;
  return {
    state,
    ...(isSecrets(secrets) ? { secrets } : {}),
    ...(mcpToken ? { mcpToken } : {}),
    ...(controlToken ? { controlToken } : {}),
    ...(isRealmKey(head.realm_key) ? { realmKey: head.realm_key } : {}),
  };
}

// Flushed through the descriptor, not FileHandle's sync() and datasync(): Yarn's Plug'n'Play replaces node:fs/promises'
// file handles with its own, whose sync() and datasync() throw "Method not implemented" (svc dev --state, and a
// starter's yarn dev, then failed at start); fsync on the same descriptor works there as everywhere.
const flush = promisify(fsync);
const flushData = promisify(fdatasync);

/**
 * When a running platform writes its state file whole again: once the file is over this many bytes and this many
 * times its last snapshot. An outside soak check saw a 300 KB state's file grow 200 KB a minute (a large value
 * stored every 20 s), compacted only at the next start.
 */
const COMPACT_AFTER_BYTES = 1024 * 1024;
const COMPACT_AFTER_SNAPSHOTS = 4;

/** Writes a file whole, durably: a temporary file beside it, fsync, rename over it, fsync the folder. */
async function writeDurably(path: string, text: string): Promise<void> {
  // Unique per write: two platforms of one process (a test restarting one) never share a temporary file.
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    try {
      await handle.writeFile(text);
      await flush(handle.fd);
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    // Not left beside the state until the next start: it holds the signing secrets.
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  const folder = await open(dirname(path), constants.O_RDONLY).catch(() => undefined);
  if (folder) await flush(folder.fd).catch(() => {});
  await folder?.close();
}

/** Removes temporary files a killed platform left beside the state file. */
async function removeLeftovers(path: string): Promise<void> {
  const name = basename(path);
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => n.startsWith(`${name}.`) && n.endsWith('.tmp'))
      .map((n) => rm(join(dirname(path), n), { force: true })),
  );
}

/**
 * The journal line of a state file after which its state no longer holds (a line that parses but sets a field to
 * what the state cannot have), 1-based in the file; undefined when the snapshot itself does not hold. Looked for only
 * once the whole file is found not to hold, by halves: a start's replay stays linear in the file.
 */
function breakingLine(text: string, path: string): number | undefined {
  const holds = (lines: number) => stateProblems(parseStateFile(text, path, lines).state) === undefined;
  if (!holds(0)) return undefined;
  // The journal's lines, the one cut short dropped: `good` lines hold, `bad` lines do not.
  let good = 0;
  let bad = text.split('\n').length - 2;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (holds(middle)) good = middle;
    else bad = middle;
  }
  // The snapshot is line 1, so journal line `bad` is the file's line bad + 1.
  return bad + 1;
}

/** A state file's state, checked, and refused when it is another app's; a journal line that broke it is named. */
function stateOf(saved: unknown, text: string, path: string, miniAppId: string): DevState {
  let state: DevState;
  try {
    state = checkState(saved, `--state ${path}`);
  } catch (error) {
    const line = breakingLine(text, path);
    if (line === undefined) throw error;
    throw new Error(
      `--state ${path} line ${line} is damaged (it sets what the state cannot hold: ${stateProblems(saved)?.join('; ')}): delete that line and the ones after it to keep the state before it, or delete the file.`,
    );
  }
  if (state.mini_app_id !== miniAppId)
    throw new Error(`--state ${path} belongs to mini app ${state.mini_app_id}, not ${miniAppId}: pass another path.`);
  return state;
}

/**
 * The key a state file's store has bound the app's id to (base64 of its SPKI), read without taking the file: `svc mcp
 * file.swbn --state` trusts it, as the svc dev writing the file does, for a package its new key alone signs after a
 * rotation. Undefined when its store has no record yet.
 * @throws Error naming the file when it is not there, is no regular file (a device or a pipe is never read), or is
 * not a state file of this app.
 * @internal
 */
export async function readBoundKey(path: string, miniAppId: string): Promise<string | undefined> {
  const text = await statRegularFile(path)
    .then(() => readFile(path, 'utf8'))
    .catch((error: NodeJS.ErrnoException) => {
      // A mistyped path would otherwise read as a key the store never bound.
      throw new DevAppError(
        `--state ${path} ${error.code === 'ENOENT' ? 'does not exist' : `cannot be read (${error.code})`}: pass the file svc dev runs with (its --state).`,
        { unreadable: true },
      );
    });
  return stateOf(parseStateFile(text, path).state, text, path, miniAppId).store?.key;
}

/** The codes of a write that found a folder where the state file goes (made there while svc dev ran). */
const FOLDER_CODES = new Set(['EISDIR', 'ENOTEMPTY']);

/** The error of a change applied but not saved to the state file at `path`: what failed and what to do. */
function notSaved(path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  // Another svc dev holds the file: the lock's own advice (delete the lock if none runs) is wrong here, and no later
  // change saves again (week45 F6).
  if (code === 'ELOCKED')
    return new Error(
      `The change is applied but not saved to ${path} (ELOCKED): another svc dev (process ${(error as { pid?: number }).pid}) took the file while this one ran (its lock or its folder was removed). This one no longer saves to it, also once that one stops, so what it applies from now on is lost when it stops: stop this one, and start it again on the file to go on from what the other saved.`,
    );
  // What to do depends on what failed: the disk full, a folder in the file's place, or the file or folder not writable.
  const fix =
    code === 'ENOSPC'
      ? 'Free space on that disk'
      : FOLDER_CODES.has(code ?? '')
        ? `A folder is where ${basename(path)} goes: move it away, or restart with another --state`
        : `Make ${basename(path)} and its folder ${dirname(path)} writable, or restart with another --state`;
  const message = (error as Error).message.replace(/\.$/, '');
  return new Error(
    `The change is applied but not saved to ${path}${code ? ` (${code})` : ''}: ${message}. ${fix}; the next change saves the whole state again.`,
  );
}

/**
 * Why the start cannot write the state file at `path` (a full disk, a folder it may not write), and what to do, as a
 * start's refusal rather than a stack trace; another error (a lock another svc dev holds, a bug) as it is.
 */
function cannotStart(path: string, error: NodeJS.ErrnoException): Error {
  if (error instanceof DevAppError || !error.code || error.code === 'ELOCKED') return error;
  const fix =
    error.code === 'ENOSPC'
      ? 'free space on that disk (the start writes the whole state again beside the file, which takes as much again)'
      : FOLDER_CODES.has(error.code)
        ? `a folder is where the file goes: move it away`
        : `make ${basename(path)} and its folder ${dirname(path)} writable`;
  return new DevAppError(
    `--state ${path} cannot be written (${error.message}): ${fix}, or pass another --state. The file is as it was.`,
    {
      unreadable: true,
    },
  );
}

/**
 * Opens the state file: reads and checks the saved state (a snapshot and its journal), compacts it into one
 * snapshot, and returns a file to append changes to.
 *
 * @remarks
 * A change is acknowledged only after its journal line is on disk, so a process killed at any moment loses no
 * acknowledged change; a line cut short by the kill was never acknowledged and is dropped on the next start. The
 * file holds the signing secrets and is written with mode 600. When the file was removed or a write failed, the
 * next change writes the whole state again (`snapshot()`), and fails with a sentence naming the cause if it cannot.
 * A file another running process holds (`<path>.lock`) is refused.
 * @internal
 */
export async function openStateFile(given: string, miniAppId: string): Promise<StateFile> {
  // A file another user put there (a shared folder) would give svc dev their token and signing secret, and a link of
  // theirs would have it write where they chose.
  const foreign = await foreignFileProblem(given);
  if (foreign)
    throw new Error(
      `--state ${given} ${foreign}: svc dev would take its MCP token and signing secret from it; pass a file of yours, in a folder of yours.`,
    );
  // A path through a symbolic link is the file it names: locked there (a second svc dev through another name is
  // refused), and written there (a rename over the link would replace it with a file of its own).
  const path = await realpath(given).catch(() => given);
  // `--state .svc/state.jsonl` in a fresh clone: the folder is made (this user's only, as the file holds secrets).
  const unlock = await mkdir(dirname(path), { recursive: true, mode: 0o700 })
    .then(() => lockFile(path, '--state'))
    .catch((error: NodeJS.ErrnoException) => {
      throw cannotStart(path, error);
    });
  try {
    // A lock removed by hand (the refusal's advice, taken while the holder still ran) let a second svc dev write
    // the file under the first: the file the running ones announce for svc publish is refused too (week45 F6).
    const announced = (await listStoreDiscoveries()).find((store) => store.state === path && store.pid !== process.pid);
    if (announced)
      throw Object.assign(
        new Error(
          `--state ${path} is in use by another svc dev (process ${announced.pid}, ${announced.url}), though its lock file is gone: stop that one first, or pass another --state.`,
        ),
        { code: 'ELOCKED', pid: announced.pid },
      );
    return await openLockedStateFile(path, miniAppId, unlock);
  } catch (error) {
    await unlock();
    throw error;
  }
}

/** What a state file holds, read and checked; undefined when there is no file yet. */
async function readSaved(
  path: string,
  miniAppId: string,
): Promise<Omit<StateFile, 'path' | 'compact' | 'append' | 'rewriteNext' | 'close'> | undefined> {
  let text: string | undefined;
  try {
    // A device or a pipe given as the state file would be read without end, or wait for ever.
    text = await statRegularFile(path).then(() => readFile(path, 'utf8'));
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EISDIR')
      throw new Error(`--state ${path} is a folder: name a file, such as ${join(path, '.svc-dev.json')}.`);
    if (code !== 'ENOENT')
      throw new Error(`--state ${path} cannot be read (${code}): pass a file this user can read and write.`);
  }
  if (text === undefined) return undefined;
  const parsed = parseStateFile(text, path);
  const state = stateOf(parsed.state, text, path, miniAppId);
  return {
    state,
    ...(parsed.secrets ? { secrets: parsed.secrets } : {}),
    ...(parsed.mcpToken ? { mcpToken: parsed.mcpToken } : {}),
    ...(parsed.controlToken ? { controlToken: parsed.controlToken } : {}),
    ...(parsed.realmKey ? { realmKey: parsed.realmKey } : {}),
  };
}

/** {@link openStateFile}, once this process holds the file; `unlock` gives it back when the file is closed. */
async function openLockedStateFile(path: string, miniAppId: string, unlock: () => Promise<void>): Promise<StateFile> {
  await removeLeftovers(path);
  const loaded = await readSaved(path, miniAppId);

  let handle: FileHandle | undefined;
  let identity = '';
  // The bytes this platform has written to the file: one shorter was cut (truncated, emptied by an editor).
  let size = 0;
  let snapshot: () => { state: DevState } & KeptSecrets = () => {
    throw new Error('compact() first');
  };
  const snapshotLine = () => `${JSON.stringify({ svc_dev_state: 1, ...snapshot() })}\n`;
  // The bytes of the last snapshot written: the journal after it is compacted once it outgrows it.
  let snapshotSize = 0;
  const reopen = async (line = snapshotLine()) => {
    await handle?.close().catch(() => {});
    handle = undefined;
    // A folder removed under the running platform (`rm -rf .svc`, `git clean`) took the lock with it: both are made
    // again, as at the start, before the whole state is written; a lock another svc dev took meanwhile refuses.
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await lockFile(path, '--state');
    await writeDurably(path, line);
    snapshotSize = Buffer.byteLength(line);
    handle = await open(path, 'a', 0o600);
    const s = await handle.stat();
    identity = `${s.dev}:${s.ino}`;
    size = s.size;
  };
  let broken = false;
  // Once closed, nothing more is written: a webhook attempt that ends after close() must not rewrite the file under
  // the next platform that opens it.
  let closed = false;
  let writing: Promise<void> = Promise.resolve();
  let batch: { lines: string[]; done: Promise<void> } | undefined;
  // Set once another svc dev held the file: this one's state has parted from it, and writing it whole again later
  // (once the other stopped) would drop what the other saved (week45 F6).
  let lost: Error | undefined;
  // Set by rewriteNext(): the next write is one snapshot.
  let whole = false;
  const write = async (lines: string[]) => {
    if (lost) throw lost;
    // A journal grown to several times its snapshot (a large value stored again and again) is written as one snapshot
    // instead of these lines: the file stays near the state's size, and the next start replays little. Taken here,
    // in the task that closed the batch, the snapshot holds exactly the changes of the lines it replaces.
    const compacted =
      whole || size > Math.max(COMPACT_AFTER_BYTES, COMPACT_AFTER_SNAPSHOTS * snapshotSize)
        ? snapshotLine()
        : undefined;
    whole = false;
    try {
      // The file replaced, removed or cut under us: appending to it would save nothing anyone can load.
      const now = await stat(path).catch(() => undefined);
      if (compacted !== undefined) await reopen(compacted);
      else if (broken || !handle || !now || `${now.dev}:${now.ino}` !== identity || now.size < size) await reopen();
      else {
        const text = lines.join('');
        await handle.write(text);
        await flushData(handle.fd);
        size += Buffer.byteLength(text);
      }
      broken = false;
    } catch (error) {
      broken = true;
      const refused = notSaved(path, error);
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') lost = refused;
      throw refused;
    }
  };
  return {
    ...loaded,
    path,
    async compact(take) {
      snapshot = take;
      // At the start: the state read, written again as one snapshot beside the file and renamed over it. A disk that
      // cannot take it leaves the file as it was, said as such rather than as a stack trace.
      await reopen().catch((error: NodeJS.ErrnoException) => {
        throw cannotStart(path, error);
      });
    },
    async append(line) {
      if (closed) return;
      if (!batch) {
        const next: { lines: string[]; done: Promise<void> } = { lines: [], done: Promise.resolve() };
        next.done = writing.then(() => {
          if (batch === next) batch = undefined;
          return write(next.lines);
        });
        batch = next;
        writing = next.done.catch(() => {});
      }
      batch.lines.push(line);
      return batch.done;
    },
    rewriteNext() {
      whole = true;
    },
    async close() {
      closed = true;
      await writing;
      await handle?.close().catch(() => {});
      handle = undefined;
      await unlock();
    },
  };
}
