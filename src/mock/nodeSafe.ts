import { isPlain } from '../protocol/shape';
import type { Transport } from '../rpc/Transport';

const MARK = '__svcMockBlob';

interface Packed {
  [MARK]: true;
  bytes: ArrayBuffer;
  type: string;
  name?: string;
}

// A plain object (of any realm, see isPlain) or an array.
const isPlainAnyRealm = (v: unknown): v is Record<string, unknown> => Array.isArray(v) || isPlain(v);

// Whether this runtime's structuredClone loses the global Blob: true under a DOM emulation (happy-dom, jsdom) in Node,
// whose Blob is not Node's. Probed, not assumed, so the mock imports nothing from Node and runs in browsers too.
const blobsLost = (): boolean => {
  if (typeof Blob !== 'function' || typeof structuredClone !== 'function') return false;
  try {
    return !(structuredClone(new Blob([])) instanceof Blob);
  } catch {
    return true;
  }
};
// Probed once, on first need.
let foreign: boolean | undefined;
const blobsAreForeign = (): boolean => {
  foreign ??= blobsLost();
  return foreign;
};
const isForeignBlob = (v: unknown): v is Blob => typeof Blob === 'function' && v instanceof Blob && blobsAreForeign();

async function pack(v: unknown, depth = 0): Promise<unknown> {
  if (isForeignBlob(v)) {
    const packed: Packed = { [MARK]: true, bytes: await v.arrayBuffer(), type: v.type };
    if (typeof (v as File).name === 'string') packed.name = (v as File).name;
    return packed;
  }
  if (!isPlainAnyRealm(v) || depth > 64) return v;
  const entries = await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await pack(x, depth + 1)] as const));
  if (!Array.isArray(v)) return Object.fromEntries(entries);
  // Each item at its key: a hole stays a hole, as structuredClone keeps it (JSON then reads it as null).
  const items: Record<string, unknown> = new Array(v.length) as never;
  for (const [k, x] of entries) items[k] = x;
  return items;
}

// Rebuilds objects and arrays in this realm (Object.fromEntries defines data properties: `__proto__` stays a key),
// and packed Blobs with this realm's Blob.
function unpack(v: unknown, depth = 0): unknown {
  if (!isPlainAnyRealm(v) || depth > 64) return v;
  if (Array.isArray(v)) return v.map((x) => unpack(x, depth + 1));
  if ((v as Partial<Packed>)[MARK] === true) {
    const p = v as unknown as Packed;
    return p.name !== undefined && typeof File === 'function'
      ? new File([p.bytes], p.name, { type: p.type })
      : new Blob([p.bytes], { type: p.type });
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unpack(x, depth + 1)]));
}

/**
 * Adapts one end of the in-memory channel to the places tests run in Node, where structuredClone does not give
 * back what a browser's postMessage would:
 *
 * - Jest runs tests in a `vm` context, and Node's structuredClone makes objects of the outer realm, which the
 *   protocol's plain-object checks (rightly strict in a browser) drop; received messages are rebuilt in this realm.
 * - Under a DOM emulation (happy-dom, jsdom) the global `Blob` is not Node's, and structuredClone turns it into an
 *   empty object; Blobs are packed into bytes before sending and rebuilt with the page's `Blob` on receipt.
 *
 * @remarks
 * Under plain Node (Vitest's node environment) neither applies, and the transport is returned as it is, at no
 * cost. Sends stay in order: a message waits for the one before it to be packed.
 */
export function nodeSafe(transport: Transport): Transport {
  const foreignBlob = blobsAreForeign();
  const otherRealm =
    typeof structuredClone === 'function' && Object.getPrototypeOf(structuredClone({})) !== Object.prototype;
  if (!foreignBlob && !otherRealm) return transport;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    send: foreignBlob
      ? (message) => {
          const sent = queue.then(async () => transport.send(await pack(message)));
          queue = sent.catch(() => {});
          return sent;
        }
      : (message) => transport.send(message),
    listen: (receive) => transport.listen((message) => receive(unpack(message))),
    close: () => transport.close(),
  };
}
