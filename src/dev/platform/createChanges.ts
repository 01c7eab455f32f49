import type { DevEvent } from '../DevEvent';
import type { DevNotice } from '../DevPlatformOptions';
import type { DevDelivery, DevState, DevStreamEvents } from '../devContract';
import type { Pages } from './createPageChannel';
import { ProblemError } from './ProblemError';
import type { SigningSecrets } from './signingSecrets';
import type { StateFile } from './stateFile';
import { type Patch, patchesJson, trackChanges } from './trackChanges';

/** What {@link createChanges} records, saves and tells. @internal */
export interface ChangesOptions {
  /** The state as loaded (or fresh): every write through the returned `state` is recorded. */
  raw: DevState;
  secrets: SigningSecrets;
  /** The state file (`--state`), if any. */
  file: StateFile | undefined;
  pages: Pages;
  tell(event: DevEvent): void;
  notice(kind: DevNotice['kind'], message: string): Promise<void> | void;
  onChange?(state: DevState): void;
}

/**
 * The platform's changes: the tracked state, and `changed()`, which bumps the revision, tells the terminal the new
 * webhook attempts, streams the change's patches to every page and appends them to the journal.
 * @internal
 */
export function createChanges(options: ChangesOptions) {
  const { raw, file, pages } = options;
  // Every write through `state` is recorded, so a change appends only what it changed to the journal.
  let patches: Patch[] = [];
  const state = trackChanges(raw, (patch) => patches.push(patch));
  let secretsChanged = false;
  // Attempts already told, per delivery: a change reports only the new ones. Those a saved state holds were told
  // by the run that made them, so a restart does not print an old delivery as new.
  const toldAttempts = new Map<string, number>(raw.deliveries.map((d) => [d.id, d.attempts.length]));
  // Only deliveries that may still get attempts are looked at, so a change costs the same however many finished:
  // each is watched from when it is added (the list only grows, until a reset puts a new one in its place).
  const watched = new Set<DevDelivery>();
  let list = raw.deliveries;
  let seen = 0;
  const tellAttempts = () => {
    if (raw.deliveries !== list) {
      [list, seen] = [raw.deliveries, 0];
      watched.clear();
    }
    for (; seen < list.length; seen++) watched.add(list[seen]!);
    for (const d of watched) {
      if (d.state !== 'pending') watched.delete(d);
      const told = toldAttempts.get(d.id) ?? 0;
      d.attempts.slice(told).forEach((a, i) => {
        options.tell({
          type: 'webhook',
          event: d.event,
          delivery_id: d.id,
          attempt: told + i + 1,
          duration_ms: a.duration_ms,
          ...(a.status === undefined ? { error: a.error } : { status: a.status }),
          ...(d.resend_of ? { resend_of: d.resend_of } : {}),
          ...(d.state === 'failed' && told + i + 1 === d.attempts.length ? { gave_up: true as const } : {}),
        });
      });
      toldAttempts.set(d.id, d.attempts.length);
    }
  };
  /** Sends one event to every open page (serialised only when one listens). */
  const broadcast = <K extends keyof DevStreamEvents>(type: K, data: DevStreamEvents[K]) => {
    if (pages.listening) pages.broadcast(type, JSON.stringify(data));
  };
  // Pages get the whole state when they connect, then each change as the patches it made (what the journal
  // appends): a change costs the page the same whatever the size of the state.
  const broadcastPatches = (batch: Patch[]) => {
    if (!pages.listening || batch.length === 0) return;
    pages.broadcast('patch', `{"type":"patch","revision":${raw.revision ?? 0},"p":${patchesJson(batch)}}`);
  };
  // Resolves once the change is on disk (with --state), so a change is answered only when it is durable; a failed
  // save is reported in the terminal and the page, and rejects with the reason (never an unhandled rejection).
  const changed = async (): Promise<void> => {
    state.revision = (state.revision ?? 0) + 1;
    tellAttempts();
    options.onChange?.(raw);
    const batch = patches;
    patches = [];
    broadcastPatches(batch);
    if (!file) return;
    const secretsJson = secretsChanged ? `,"secrets":${JSON.stringify(options.secrets)}` : '';
    const line = `{"p":${patchesJson(batch)}${secretsJson}}\n`;
    secretsChanged = false;
    try {
      await file.append(line);
    } catch (error) {
      const message = (error as Error).message;
      broadcast('problem', { type: 'problem', message });
      await options.notice('save-failed', message);
      // What the request asked for is done, only not on disk: its answer (500) says so, as a client that sent it
      // again would post the card or the message twice.
      throw new ProblemError('internal-error', `${message} Do not send the request again: what it asked for is done.`);
    }
  };
  return {
    state,
    changed,
    /** For changes nobody waits on (webhook attempts): a failure is reported by `changed` itself. */
    changedInBackground: () => void changed().catch(() => {}),
    /** The next change saves the signing secrets too (a rotation). */
    secretsChanged() {
      secretsChanged = true;
    },
    /** The next change writes the whole state to the file (a reset: what it cleared leaves the file at once). */
    rewriteNext() {
      file?.rewriteNext();
    },
    broadcast,
  };
}

/** The changes of one platform. @internal */
export type Changes = ReturnType<typeof createChanges>;
