import { constants, gunzipSync, inflateRawSync } from 'node:zlib';

/** How much of a member is unpacked (a key is a few KB), and how many members of a zip are looked at. */
const MEMBER_BYTES = 16 << 20;
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

// A cut stream (the part of a file read) gives what it has; a larger output stops there rather than fill memory.
const partial = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MEMBER_BYTES };

const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
// What may follow a member whose size its header leaves out: a data descriptor, the next member, the central directory.
const AFTER_MEMBER = [[0x50, 0x4b, 0x07, 0x08], LOCAL_HEADER, [0x50, 0x4b, 0x01, 0x02]].map((record) =>
  Buffer.from(record),
);
/** Where the first record after `from` starts (the end of a member whose size is not given), or the end. */
const nextRecord = (bytes: Buffer, from: number) =>
  Math.min(...AFTER_MEMBER.map((record) => bytes.indexOf(record, from)).filter((at) => at !== -1), bytes.length);

/** Whether `bytes` are or hold an archive {@link unpackedMembers} reads: a gzip file, or a zip's member. @internal */
export const isArchive = (bytes: Buffer): boolean =>
  (bytes[0] === 0x1f && bytes[1] === 0x8b) || bytes.includes(LOCAL_HEADER);

/**
 * What a gzip file or a zip archive holds (each member's first 16 MiB; the first 64 members of a zip, stored or
 * deflated),
 * so that a key saved as an archive next to a project is found as the key itself is; nothing for other bytes. A zip's
 * members are found by their local headers wherever they are (after bytes put in front, as a self-extractor has them),
 * also those a streaming writer (`jar`, `zip -` to a pipe) gives no size: a deflated one ends where its stream does, a
 * stored one where the next record starts.
 * @internal
 */
export function unpackedMembers(bytes: Buffer): Buffer[] {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return unpack((input) => gunzipSync(input, partial), bytes);
  const members: Buffer[] = [];
  for (let at = bytes.indexOf(LOCAL_HEADER); at !== -1 && at + 30 <= bytes.length && members.length < ZIP_MEMBERS; ) {
    const method = bytes.readUInt16LE(at + 8);
    const size = bytes.readUInt32LE(at + 18);
    const data = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    if (method === 8) members.push(...unpack((input) => inflateRawSync(input, partial), bytes.subarray(data)));
    else if (method === 0) {
      const end = size > 0 ? data + size : nextRecord(bytes, data);
      members.push(bytes.subarray(data, Math.min(end, data + MEMBER_BYTES)));
    }
    at = bytes.indexOf(LOCAL_HEADER, Math.max(data, at + 4));
  }
  return members;
}
