/**
 * The key an own `__proto__` property of a tool call's arguments travels under through the SDK, one per endpoint and
 * unguessable. The SDK checks `arguments` as a record, which copies each key by assignment: `__proto__` then sets the
 * copy's prototype and the property is gone, so the call would run without it. Moved aside before and put back after
 * (see {@link restoreOwnProto}), it reaches the manifest's validator, which names it as it names any other key.
 * The HTTP endpoint and the stdio bridge each draw one. @internal
 */
export const ownProtoKey = () => `svc-own-__proto__-${crypto.randomUUID()}`;

/** The arguments of each `tools/call` in a parsed body (one message or a batch) with an own `__proto__` moved aside. @internal */
export function moveOwnProto(parsed: unknown, key: string): void {
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const call = message as { method?: unknown; params?: { arguments?: unknown } } | null;
    if (typeof call !== 'object' || call === null || call.method !== 'tools/call') continue;
    const args = call.params?.arguments;
    if (typeof args !== 'object' || args === null || !Object.hasOwn(args, '__proto__')) continue;
    // The own property read and removed as such: `args.__proto__` would be the accessor on Object.prototype.
    const { value } = Object.getOwnPropertyDescriptor(args, '__proto__')!;
    Object.defineProperty(args, key, { value, enumerable: true, configurable: true, writable: true });
    Reflect.deleteProperty(args, '__proto__');
  }
}

/**
 * The arguments as the agent sent them: the own `__proto__` moved aside by {@link moveOwnProto} back as an own key.
 * @internal
 */
export function restoreOwnProto(args: unknown, key: string): unknown {
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, key)) return args;
  // fromEntries defines properties: `__proto__` stays a key instead of becoming the prototype.
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [name === key ? '__proto__' : name, value]));
}
