import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import parseRange from 'range-parser';

/**
 * The bytes of a `size`-byte file that `req` asks for: all of them (no `Range`, or one this server may ignore), one
 * range, which a media element needs to seek (Safari plays no video without it), or none that exist. Several ranges
 * get the whole file, as RFC 9110 allows: browsers ask for one. The package server gives no validator (no-store),
 * so an `If-Range` can never match, and the whole file is the answer to it.
 */
function byteRange(req: IncomingMessage, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const header = req.headers.range;
  if (header === undefined || req.headers['if-range'] !== undefined) return undefined;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return ranges[0];
}

/**
 * Answers a request for a file of `size` bytes with all of it or the one range it asks for (206), or 416 when no byte
 * of that range is in the file; `read` gives bytes `start` to `end`, both included. The answer carries `type`, and
 * `csp`: the app's policies go with every answer, since an SVG or XML document runs scripts as a page does.
 * @internal
 */
export function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  type: string,
  size: number,
  read: (start: number, end: number) => Buffer | Readable,
  csp?: string[],
) {
  const range = byteRange(req, size);
  if (range === 'unsatisfiable')
    return res
      .writeHead(416, {
        'content-range': `bytes */${size}`,
        'content-type': 'text/plain; charset=utf-8',
        'x-content-type-options': 'nosniff',
      })
      .end(`no byte of the Range ${req.headers.range} is in the file (${size} bytes).\n`);
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const headers: Record<string, string | string[]> = {
    'content-type': type,
    'content-length': String(end - start + 1),
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(range && { 'content-range': `bytes ${start}-${end}/${size}` }),
    ...(csp && { 'content-security-policy': csp }),
  };
  res.writeHead(range ? 206 : 200, headers);
  // A browser that went away while the file was being opened (an aborted download, a reload) gets no stream: one
  // piped into a closed answer would wait for a drain that never comes, holding its file open until garbage
  // collection (and Node's warning in the terminal).
  if (req.method === 'HEAD' || size === 0 || res.destroyed) return res.end();
  const body = read(start, end);
  if (Buffer.isBuffer(body)) return res.end(body);
  // A file cut short as it is read (a build writing it again in place) must not end as if it were whole: the
  // browser would wait for the missing bytes, or read the next answer as them. It is cut off instead, as is an
  // answer the browser stops reading (a seek). (Node's strictContentLength would throw outside any handler.)
  // Piped by hand, not with node:stream's pipeline: the build drops the `node:` prefix, and Vitest, running
  // svc-sdk-dev from a folder linked outside node_modules (the starter's test), looks for a bare `stream` as a file.
  body.pipe(res, { end: false });
  let sent = 0;
  body.on('data', (chunk: Buffer) => {
    sent += chunk.length;
  });
  body.once('end', () => (sent === end - start + 1 ? res.end() : res.destroy()));
  body.once('error', () => res.destroy());
  res.once('close', () => body.destroy());
}
