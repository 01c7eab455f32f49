import { constants, gunzipSync, inflateRawSync } from 'node:zlib';

/** How much of a member is unpacked (a key is a few KB), and how many members of a zip are looked at. */
const MEMBER_BYTES = 1 << 20;
const ZIP_MEMBERS = 64;

/**
 * Unpacks what can be unpacked of deflated bytes, at most {@link MEMBER_BYTES}; nothing when they are not. Whose
 * whole unpacks to more (a project's archive), its start does: a quarter of the bytes at a time, until it fits.
 */
function unpack(run: (input: Buffer) => Buffer, input: Buffer): Buffer[] {
  for (let cut = input.length; cut > 0; cut = cut > 64 ? Math.floor(cut / 4) : 0) {
    try {
      return [run(input.subarray(0, cut))];
    } catch (error) {
      if (!(error instanceof RangeError)) return [];
    }
  }
  return [];
}

// A cut stream (the first MiB of a file) gives what it has; a larger output stops there rather than fill memory.
const partial = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MEMBER_BYTES };

/**
 * What a gzip file or a zip archive holds (each member's first MiB; the first 64 members of a zip, stored or deflated,
 * read from their local headers), so that a key saved as an archive next to a project is found as the key itself
 * is; nothing for other bytes. Members of a zip that give their sizes only after their data are not read.
 * @internal
 */
export function unpackedMembers(bytes: Buffer): Buffer[] {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return unpack((input) => gunzipSync(input, partial), bytes);
  const members: Buffer[] = [];
  let at = 0;
  while (members.length < ZIP_MEMBERS && at + 30 <= bytes.length && bytes.readUInt32LE(at) === 0x04034b50) {
    const method = bytes.readUInt16LE(at + 8);
    const size = bytes.readUInt32LE(at + 18);
    const data = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    const body = bytes.subarray(data, data + size);
    if (method === 0) members.push(body.subarray(0, MEMBER_BYTES));
    else if (method === 8) members.push(...unpack((input) => inflateRawSync(input, partial), body));
    if (size === 0) break;
    at = data + size;
  }
  return members;
}
