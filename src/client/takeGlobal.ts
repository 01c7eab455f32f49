// biome-ignore-all lint/suspicious/noExplicitAny: the client reads globals and wire values of foreign shape and checks each where it is used; typing them would add guards the 4,000-byte budget cannot afford
import { isPlain } from '../protocol/shape';

/**
 * Takes a bootstrap value a native host left on the page, and removes it: `svc` is the only non-standard global an
 * app keeps. Only a plain object (of any realm) counts: markup can plant an element (`id="__svc_port"`) or a child
 * frame (whose window has a `postMessage`) under that name, never a plain object. A cross-origin frame's window
 * has a null prototype, like a plain object, but its `window` is itself: that tells them apart without touching
 * anything a cross-origin window guards.
 */
export function takeGlobal(scope: any, key: string): Record<string, unknown> | undefined {
  const value = scope?.[key];
  if (!isPlain(value) || value.window) return undefined;
  delete scope[key];
  return value;
}
