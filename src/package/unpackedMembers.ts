import { constants, gunzipSync, inflateRawSync } from 'node:zlib';

/**
 * How much of a member is unpacked (a key is a few KB), how many members of a zip are looked at, and how much is
 * unpacked of one archive in all: each unpacked byte is then searched, at tens of nanoseconds a byte, and 64 members of
 * 16 MiB of zeros (a 1 MB zip) took svc pack 12 s and 1.3 GB.
 */
const MEMBER_BYTES = 16 << 20;
const ZIP_MEMBERS = 64;
const ARCHIVE_BYTES = 32 << 20;

/**
 * Unpacks what can be unpacked of deflated bytes, at most `limit`; nothing when they are not. Whose whole unpacks to
 * more (a project's archive), its start does: a quarter of the bytes at a time, until it fits.
 */
function unpack(run: (input: Buffer, limit: number) => Buffer, input: Buffer, limit: number): Buffer | undefined {
  for (let cut = input.length; cut > 0; cut = cut > 64 ? Math.floor(cut / 4) : 0) {
    try {
      return run(input.subarray(0, cut), limit);
    } catch (error) {
      if (!(error instanceof RangeError)) return undefined;
    }
  }
  return undefined;
}

// A cut stream (the part of a file read) gives what it has; a larger output stops there rather than fill memory.
const partial = (limit: number) => ({ finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: limit });
const gunzip = (input: Buffer, limit: number) => gunzipSync(input, partial(limit));
const inflate = (input: Buffer, limit: number) => inflateRawSync(input, partial(limit));

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
 * What a gzip file or a zip archive holds, a member at a time (each member's first 16 MiB; the first 64 members of a
 * zip, stored or deflated; 32 MiB in all), so that a key saved as an archive next to a project is found as the key
 * itself is; nothing for other bytes. A zip's members are found by their local headers wherever they are (after bytes
 * put in front, as a self-extractor has them), also those a streaming writer (`jar`, `zip -` to a pipe) gives no
 * size: a deflated one ends where its stream does, a stored one where the next record starts. Lazy: a search that
 * stops at the first secret unpacks no more, and one member is held at a time.
 * @internal
 */
export function* unpackedMembers(bytes: Buffer): Generator<Buffer> {
  let budget = ARCHIVE_BYTES;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const whole = unpack(gunzip, bytes, Math.min(MEMBER_BYTES, budget));
    if (whole) yield whole;
    return;
  }
  let members = 0;
  for (let at = bytes.indexOf(LOCAL_HEADER); at !== -1 && at + 30 <= bytes.length && members < ZIP_MEMBERS; ) {
    if (budget <= 0) return;
    const method = bytes.readUInt16LE(at + 8);
    const size = bytes.readUInt32LE(at + 18);
    const data = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    const limit = Math.min(MEMBER_BYTES, budget);
    const member =
      method === 8
        ? unpack(inflate, bytes.subarray(data), limit)
        : method === 0
          ? bytes.subarray(data, Math.min(size > 0 ? data + size : nextRecord(bytes, data), data + limit))
          : undefined;
    if (member) {
      members++;
      budget -= member.length;
      yield member;
    }
    at = bytes.indexOf(LOCAL_HEADER, Math.max(data, at + 4));
  }
}
