import { isPlain } from '../protocol/shape';

/**
 * Takes a bootstrap value a native host left on the page, and removes it: `svc` is the only non-standard global an
 * app keeps. Only a plain object (of any realm) counts: markup can plant an element (`id="__svc_port"`) or a child
 * frame (whose window has a `postMessage`) under that name, never a plain object.
 */
export function takeGlobal(scope: any, key: string): Record<string, unknown> | undefined {
  const value = scope?.[key];
  if (!isPlain(value)) return undefined;
  delete scope[key];
  return value;
}
