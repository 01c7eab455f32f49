import { Blob as NodeBlob } from 'node:buffer';
import type { Transport } from '../rpc/Transport';

const MARK = '__svcMockBlob';

interface Packed {
  [MARK]: true;
  bytes: ArrayBuffer;
  type: string;
  name?: string;
}

const isPlainOrArray = (v: unknown): v is Record<string, unknown> =>
  Array.isArray(v) || (typeof v == 'object' && v !== null && [Object.prototype, null].includes(Object.getPrototypeOf(v)));

// A Blob that Node's structuredClone cannot copy: one made by a DOM emulation (happy-dom, jsdom) in place of Node's.
const isForeign = (v: unknown): v is Blob => typeof Blob == 'function' && v instanceof Blob && !(v instanceof NodeBlob);

async function pack(v: unknown, depth = 0): Promise<unknown> {
  if (isForeign(v)) {
    const packed: Packed = { [MARK]: true, bytes: await v.arrayBuffer(), type: v.type };
    if (typeof (v as File).name == 'string') packed.name = (v as File).name;
    return packed;
  }
  if (!isPlainOrArray(v) || depth > 32) return v;
  const out: any = Array.isArray(v) ? [] : {};
  for (const [k, x] of Object.entries(v)) out[k] = await pack(x, depth + 1);
  return out;
}

function unpack(v: unknown, depth = 0): unknown {
  if (!isPlainOrArray(v) || depth > 32) return v;
  if ((v as Partial<Packed>)[MARK] === true) {
    const p = v as unknown as Packed;
    return p.name !== undefined && typeof File == 'function' ? new File([p.bytes], p.name, { type: p.type }) : new Blob([p.bytes], { type: p.type });
  }
  for (const [k, x] of Object.entries(v)) v[k] = unpack(x, depth + 1);
  return v;
}

/**
 * Lets Blobs cross the in-memory channel where a DOM emulation replaced the global `Blob` (Vitest's happy-dom or
 * jsdom environment): Node's structuredClone turns such a Blob into an empty object, so each end packs it into
 * bytes before sending and rebuilds it, with the page's own `Blob`, on receipt.
 *
 * @remarks
 * Under plain Node the global `Blob` is Node's own and clones natively, so the transport is returned as it is and
 * costs nothing. Sends stay in order: a message waits for the one before it to be packed.
 */
export function blobSafe(transport: Transport): Transport {
  if (typeof Blob != 'function' || Blob === NodeBlob) return transport;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    send(message) {
      const sent = queue.then(async () => transport.send(await pack(message)));
      queue = sent.catch(() => {});
      return sent;
    },
    listen: (receive) => transport.listen((message) => receive(unpack(message))),
    close: () => transport.close(),
  };
}
