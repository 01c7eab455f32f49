import { batch, type Signal, signal } from '@preact/signals';
import type { DevState } from '../devContract';

/** One signal per top-level slice of the platform's state. */
export type StateSlices = { [K in keyof DevState]-?: Signal<DevState[K]> };

/** The page's copy of the platform's state, as signals: what each component reads. */
export interface StateStore {
  /** Each slice's signal: a component reading `slices.rooms.value` renders again only when the rooms change. */
  readonly slices: StateSlices;
  /** The whole state as last applied (what the host's handlers read). */
  current(): DevState;
  /**
   * Takes a newer state: sets the signal of each slice that is not the same object as before. The patches the event
   * stream delivers are applied with structural sharing (`withPatches`), so an untouched slice keeps its identity
   * and its components do not render again. A state that is not newer is ignored (see {@link isNewer}); returns
   * whether the state was taken.
   */
  apply(next: DevState): boolean;
}

/**
 * Whether `next` is newer than `current`. Every change increments the revision, so a state of the same revision is
 * the same state: a button's change arrives twice (the control call's answer, then the stream's patches) and is
 * taken once. A control call's answer overtaken by the stream is older, and never taken back.
 */
export function isNewer(next: DevState, current: DevState): boolean {
  if (next.revision === undefined) return current.revision === undefined;
  return next.revision > (current.revision ?? -1);
}

/** The store, starting from `initial` (the state the page fetched when it started). */
export function createStateStore(initial: DevState): StateStore {
  let state = initial;
  const slices = {} as Record<keyof DevState, Signal<unknown>>;
  const slice = (key: keyof DevState) => {
    slices[key] ??= signal<unknown>(state[key]);
    return slices[key];
  };
  for (const key of Object.keys(initial) as (keyof DevState)[]) slice(key);
  return {
    // A slice absent from the first state (the store's record, before any package) gets its signal when read.
    slices: new Proxy(slices, { get: (_target, key) => slice(key as keyof DevState) }) as unknown as StateSlices,
    current: () => state,
    apply(next) {
      if (!isNewer(next, state)) return false;
      const previous = state;
      state = next;
      batch(() => {
        for (const key of new Set([...Object.keys(previous), ...Object.keys(next)]) as Set<keyof DevState>)
          if (previous[key] !== next[key]) slice(key).value = next[key];
      });
      return true;
    },
  };
}
