import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** How long standard input may stay silent before the command says it is waiting for it. */
const STDIN_WAIT_NOTICE_MS = 5000;

/** The most a key, a secret or an env file the CLI reads may hold: each is a few hundred bytes to a few KB. */
const SMALL_TEXT_LIMIT = 64 * 1024;

/**
 * Reads a small text file the user names (a key, a signing secret, an env file) whole, up to `limit` bytes: a regular
 * file, a pipe such as a shell's process substitution (`--key <(vault read …)`), or standard input for `-`. A device
 * (`/dev/zero` would be read without end), a socket or a folder is refused before it is opened, and a pipe is read
 * only up to the limit. Standard input is refused when it is a terminal, and `waiting` is called when it has said
 * nothing for 5 s.
 * @throws the file system's error (with its `code`, `ENOENT` for none); an error whose `code` is `EISDIR` for a
 * folder, `not a regular file` for a device or a socket, `TTY` for standard input at a terminal, and
 * `more than <limit> bytes` past the limit.
 * @internal
 */
export async function readSmallText(path: string, limit = SMALL_TEXT_LIMIT, waiting?: () => void): Promise<string> {
  if (path === '-') {
    // A terminal would wait for someone to type a key in, with nothing on the screen asking for it.
    if (process.stdin.isTTY) throw refusal('standard input', 'TTY');
    // A pipe nobody writes to (a CI step whose secret was never echoed in) waits as any reader does: said, once.
    const told = waiting && setTimeout(waiting, STDIN_WAIT_NOTICE_MS);
    try {
      return await readCapped(process.stdin, 'standard input', limit);
    } finally {
      clearTimeout(told);
    }
  }
  const kind = await stat(path);
  if (kind.isFile()) {
    if (kind.size > limit) throw refusal(path, `more than ${limit} bytes`);
    return readFile(path, 'utf8');
  }
  // A pipe is how a secret reaches a command without touching the disk; its writer decides when it ends.
  if (kind.isFIFO()) return readCapped(createReadStream(path), path, limit);
  throw refusal(path, kind.isDirectory() ? 'EISDIR' : 'not a regular file');
}

const refusal = (path: string, code: string) => Object.assign(new Error(`${path}: ${code}`), { code });

/** A stream's text, refused once it passes `limit` bytes (leaving the loop early closes the stream). */
async function readCapped(stream: Readable, name: string, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) throw refusal(name, `more than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
