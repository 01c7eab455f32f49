/**
 * Bearer credentials and JWT-shaped values, also glued to a word (`x_eyJ…`, where a `\b` finds no boundary): what
 * {@link redactText} replaces with `'$1[redacted]'`. `SvcError` replaces them itself, without the call (the browser
 * client's budget).
 * @internal
 */
export const TOKENS = /\b(Bearer\s+)\S+|eyJ[\w-]*\.[\w-]*\.[\w-]*/gi;

/**
 * A credential after the word or words of its scheme, however they are joined (`Bearer x`, `Basic Basic x`,
 * `Basic:x`, `"Basic","x"`, `Basic%20x` and `Basic+x` as a URL or a form encodes the space, a zero-width character
 * between): a `Bearer` one always, a `Basic` one when it is the base64 of a user and a password (an API that takes a
 * token as its password, echoed in an upstream's error) or of a JWT, so that "a basic poll" stays as it is. A base64
 * or base64url credential (a JWT's too, dots and all) folded onto lines of 16 characters or more (MIME folds at 76, a
 * logger at 64; its last line shorter where a quote or the text's end follows it; its line breaks as they are (also
 * CR, NEL and the Unicode line separators) or escaped in JSON text, `\r\n`; up to 256 lines, so a text of millions stays within the regular expression's stack)
 * is the credential whole; one already `[redacted]` is left as it is.
 */
const SCHEME =
  /\b((?:(?:Bearer|Basic)(?:[\s"':,=+\u200b-\u200d\u2060\ufeff]|%20)+)+)(?!\[redacted\])([^\s"',\]]+(?:(?:\r\n|[\n\r\u2028\u2029\u0085]|\\r\\n|\\n)[ \t]*[\w+/.-]{16}[\w+/.-]*={0,2}){0,256}(?:(?:\r\n|[\n\r\u2028\u2029\u0085]|\\r\\n|\\n)[ \t]*[\w+/.-]{1,15}={0,2}(?=["']|$))?)/gi;
/**
 * A JWT as a logger wraps or spaces it at its dots (invisible break opportunities too: a zero-width space, a joiner, a
 * soft hyphen), as a URL encodes its dots (`%2E`), as JSON escaped twice writes them (`\u002e`), or with look-alike
 * full stops and middle dots (`。`, `．`, `｡`, `․`, `﹒`, `·`, `‧`, `⸱`, `ꓸ`, `︒`, `۔`, `܁`, `։`, `።`), also URL-encoded
 * or JSON-escaped; its header and claims too, where a cut took the rest. Left after a redaction, what follows would be
 * its signature, which with the header and claims (often predictable) gives the token back: the three parts go
 * together.
 */
const JWT_FORMS =
  /eyJ[\w-]*(?:[\s\u00ad\u200b-\u200d\u2060\ufeff]*(?:\.|%2E|\\u002e|[\u3002\uff0e\uff61\u2024\ufe52\u00b7\u2027\u2e31\ua4f8\ufe12\u06d4\u0701\u0589\u1362]|%E3%80%82|%EF%BC%8E|%EF%BD%A1|\\u(?:3002|ff0e|ff61))[\s\u00ad\u200b-\u200d\u2060\ufeff]*[\w-]*){1,2}/iy;

/**
 * A JWT whose parts are joined by anything but a letter or a digit, up to 16 times over (a dot written as another
 * character, URL-encoded, JSON-, C- or HTML-escaped, also an escape's backslash escaped or encoded, doubled, with
 * invisible characters, spaces or dashes beside it): its header and its claims each start `eyJ` (the base64 of `{"`)
 * and run 16 characters at least (`{"alg":"none"}` is 19), which prose and a short base64 cursor (`{"page":1}`) do
 * not; its signature goes with them. An escape's backslash is one as it is (or doubled), URL-encoded (also twice), as
 * an HTML entity (`&#92;`, `&#x005c;`, `&bsol;`, also URL-encoded), or escaped itself (`\u005c`, `\x5c`, `\u{5c}`,
 * `\x{5c}`, `\U0000005c`, `\134`, `%u005c`). Written out whole,
 * not put together from parts: a template of constants stays in the script-tag build, which takes `TOKENS` from
 * this file.
 */
const SEPARATOR =
  '(?:%(?:25)*(?:u[\\da-f]{4}|[\\da-f]{2})|\\\\{0,8}(?:\\\\|%(?:25)*(?:5c|u005c)|&(?:amp;)*(?:#0*92|#x0*5c|bsol);|%26(?:amp%3B)*(?:%230*92|%23x0*5c|bsol)%3B){1,4}(?:x5c|x\\{0*5c\\}|u005c|u\\{0*5c\\}|U0000005c|134)?(?:u[\\da-f]{4}|u\\{0*[\\da-f]{1,6}\\}|x[\\da-f]{2}|x\\{0*[\\da-f]{1,6}\\}|U[\\da-f]{8}|0*[0-7]{1,3}|o\\{0*[0-7]{1,8}\\}|[nrt])|&(?:amp;)*(?:#x0*[\\da-f]{1,6}|#0*\\d{1,7}|#?\\w{1,8});|[^a-z\\d]){1,16}';
// `{13}` then `*`, not `{13,}`: V8 runs out of stack on `{n,}` over a run of millions of characters.
const JWT_PART = 'eyJ[\\w-]{13}[\\w-]*';
// Where a JWT's header may start; it is one when it names its `alg`, which is looked for before the whole is matched:
// a search for the whole from each `eyJ` of a text of cursors would run to its end each time.
const HEADER_START = /eyJ[\w-]{13}/g;

/**
 * Made at the first redaction: the browser client takes `TOKENS` from this file, and its script-tag build keeps any
 * call made as the module loads (100 bytes of its budget). The whole JWT from a header's start (sticky), and what a
 * redaction before left of one (an app's error is redacted by its client first, which takes a JWT's dots as they
 * come, and leaves its signature after `..`).
 */
let joinedJwt: RegExp | undefined;
let signatureLeft: RegExp | undefined;

/**
 * Whether `credential` is the base64 of `user:password` or of a JWT, or the start of one: a message cut at its length
 * limit (the app's client cuts at 1,000 characters, before this redaction) may end inside it, and what is left of it
 * still holds the most of a token.
 */
const isBase64Secret = (credential: string) => {
  // Its lines joined, and decoded as a URL encodes it (`%3D` for `=`).
  const joined = credential
    .replace(/\s|\\[rn]/g, '')
    .replace(/%([\da-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // Its base64 alone: in JSON text with escaped line breaks, what follows (`\r\nContent-Type:`) runs on unbroken.
  const base64 = /^[A-Za-z0-9+/]*={0,2}/.exec(joined)![0];
  const whole = base64.slice(0, base64.length - (base64.length % 4));
  try {
    const decoded = whole.length > 0 ? atob(whole) : '';
    return decoded.includes(':') || decoded.startsWith('eyJ');
  } catch {
    return false;
  }
};

/**
 * Removes anything shaped like a token from a text, wherever it stands: what an error message, a log or an agent is
 * told never carries a usable credential. (svc dev also removes its own secrets, in whole values: `redactSecrets`.)
 * Wider than {@link TOKENS}, which the browser client's budget has no room beyond.
 * @internal
 */
export function redactText(text: string): string {
  // The header lazily (`*?`): the shortest run another part follows.
  joinedJwt ??= new RegExp(`${JWT_PART}?${SEPARATOR}(${JWT_PART})(?:${SEPARATOR}[\\w-]{8}[\\w-]*)?`, 'iyd');
  signatureLeft ??= new RegExp(`\\[redacted\\]${SEPARATOR}[\\w-]{16}[\\w-]*`, 'gi');
  // A JWT folded onto lines first: a `Bearer` credential's own expression reads on over one kind of line break only.
  const schemesOut = withoutBrokenJwts(text)
    .replace(SCHEME, (all, scheme: string, credential: string) =>
      /^bearer/i.test(scheme)
        ? isProse(scheme, credential)
          ? all
          : `${scheme}[redacted]`
        : isBase64Secret(credential)
          ? `${scheme}[redacted]`
          : all,
    )
    .replace(signatureLeft, '[redacted]');
  return withoutCutHeader(withoutDottedJwts(withoutJoinedJwts(schemesOut, joinedJwt)));
}

/**
 * Whether `Bearer <word>` is a sentence's, not a header's: the word after one space is a short word of letters, lower
 * case after its first (`a Bearer token`, `the Bearer of`), which no platform issues as a credential; a full stop or
 * comma may end it (mcp47 F1: prose lost its next word).
 */
const isProse = (scheme: string, credential: string) =>
  /^bearer {1,2}$/i.test(scheme) && /^[A-Za-z][a-z]{1,11}[.,;:!?)]?$/.test(credential);

// Where a JWT may start, case and all (a header is the base64 of `{"`).
const JWT_START = /eyJ/g;
// A run of a token's characters: base64url, its dots, and the invisible break opportunities a text may hold inside a
// part (a zero-width space, a joiner, a soft hyphen).
const TOKEN_RUN = /[\w.\u00ad\u200b-\u200d\u2060\ufeff-]*/y;
const INVISIBLES = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
// What may follow a value's last characters: the text's end, a quote, a bracket, a separator or a line break.
const VALUE_END = /^(?:$|["'`\r\n\v\f\u0085\u2028\u2029,;)\]}>=]|\\+[nru"])/;
// The line breaks a wrap puts in a token (up to four: blank lines between), each as it is (CR LF, LF, CR, NEL, the
// Unicode line and paragraph separators, a vertical tab, a form feed) or escaped in JSON text once or twice, after a
// quoted-printable soft break's `=`, and the next line's indentation or a mail quote's `>`.
const LINE_BREAK =
  /=?(?:(?:\r\n|[\n\r\v\f\u0085\u2028\u2029]|\\{1,3}(?:r\\{1,3}n|[nr]|u2028|u2029|u0085))[ \t>]*){1,4}/y;
// The least length of a signature, in base64url characters, by `alg`: a token is whole once its third part is as long.
const SIGNATURE_LENGTH: Record<string, number> = {
  none: 0,
  HS384: 64,
  HS512: 86,
  ES256: 86,
  ES384: 128,
  ES512: 176,
  EdDSA: 86,
};

/**
 * `text` without the JWTs a line wrap or an invisible character breaks inside a part (a logger folds a token every
 * 64 or 76 characters, wherever its dots are): a token is read on across a line break while it is not whole (fewer
 * than three parts, or a signature shorter than its `alg` makes one), so the rest of its claims and its signature go
 * with its header. A line after a break belongs to the token when it is a run of 16 characters or more, or the run
 * that ends it (not followed by a space: the next line's prose is not the token's).
 */
function withoutBrokenJwts(text: string): string {
  // Nothing to look for: a text of no line break and no invisible character (most texts) is left unread.
  if (!/[\n\r\v\f\u0085\u2028\u2029\u00ad\u200b-\u200d\u2060\ufeff]|\\[nru]/.test(text)) return text;
  let out = '';
  let last = 0;
  JWT_START.lastIndex = 0;
  for (let start = JWT_START.exec(text); start; start = JWT_START.exec(text)) {
    const { end, skip } = brokenJwtAt(text, start.index);
    if (end === undefined) {
      JWT_START.lastIndex = Math.max(skip, start.index + 1);
      continue;
    }
    out += `${text.slice(last, start.index)}[redacted]`;
    last = JWT_START.lastIndex = end;
  }
  return out + text.slice(last);
}

// The most of a folded token read: 16 KB, the largest header and claims a platform issues, many times over.
const FOLDED_READ = 16_384;

/**
 * Where a JWT from `at` that a line break or an invisible character breaks ends (`end`), or, when none starts there,
 * where to look for the next (`skip`): past everything read when what was read held no second part (no later start
 * within it can hold one), else past the first run (a later `eyJ` of it may be the header).
 */
function brokenJwtAt(text: string, at: number): { end?: number; skip: number } {
  // Where the run the token starts in ends: set by the first line read.
  let firstRun = at;
  let joined = '';
  let end = at;
  let broken = false;
  // At most 256 lines and 16 KB: a token folded at 64 characters.
  for (let line = 0; line < 256 && joined.length < FOLDED_READ; line++) {
    const run = runAt(text, end);
    end += run.length;
    if (line === 0) firstRun = end;
    const visible = run.replace(INVISIBLES, '');
    broken ||= visible.length !== run.length;
    joined += visible;
    // What names no `alg` in its first 128 characters is no header: known once, at the line that reaches them.
    if (joined.length >= 128 && joined.length - visible.length < 128 && !namesAlg(joined.slice(0, 128)))
      return { skip: firstRun };
    const lacks = lacking(joined);
    if (lacks === 0) break;
    LINE_BREAK.lastIndex = end;
    if (!LINE_BREAK.exec(text)) break;
    const next = LINE_BREAK.lastIndex;
    const following = runAt(text, next);
    const length = following.replace(INVISIBLES, '').length;
    // A line of fewer than 16 is the token's last when a value ends after it (a quote, a bracket, a line break, the
    // text's end), or when it is no longer than what a signature begun lacks; otherwise it is the next line's prose.
    const last = VALUE_END.test(text.slice(next + following.length, next + following.length + 2));
    if (!following || (length < 16 && !last && !(Number.isFinite(lacks) && length <= lacks))) break;
    end = next;
    broken = true;
  }
  const dot = joined.indexOf('.');
  if (dot === -1) return { skip: end };
  // A sentence's full stop after the token is the sentence's.
  while (text.charAt(end - 1) === '.') end--;
  const header = joined.slice(0, dot);
  return broken && header.length >= 16 && namesAlg(header.slice(0, 128)) ? { end, skip: end } : { skip: firstRun };
}

/** The run of a token's characters at `at` (empty when none starts there). */
function runAt(text: string, at: number): string {
  TOKEN_RUN.lastIndex = at;
  return TOKEN_RUN.exec(text)![0];
}

/**
 * How many characters the signature of a token read so far lacks (as its `alg` makes one, 43 for an `alg` not
 * known): 0 once it is whole; a token of fewer than three parts lacks a whole signature (Infinity: its next line is
 * read on).
 */
function lacking(joined: string): number {
  // Fewer than three parts (most of a long fold): said without splitting the text read so far.
  const first = joined.indexOf('.');
  if (first === -1 || joined.indexOf('.', first + 1) === -1) return Number.POSITIVE_INFINITY;
  const parts = joined.split('.', 3);
  const alg = /"alg"\s*:\s*"([^"]*)"/.exec(decodedStart(parts[0]!))?.[1] ?? '';
  const least = /^[RP]S/.test(alg) ? 342 : Object.hasOwn(SIGNATURE_LENGTH, alg) ? SIGNATURE_LENGTH[alg]! : 43;
  return Math.max(least - parts[2]!.length, 0);
}

/**
 * `text` without a JWT's header that ends it, the rest of the token cut off: an app's client cuts an error's message
 * at 1,000 characters before it looks for tokens, and svc dev's page a progress message, ending it with a count of
 * what it left out (`… (N more characters)`), so a token there may be left as its first part alone. Read back from
 * the end by hand: an expression anchored there would be tried from every earlier position.
 */
function withoutCutHeader(text: string): string {
  const mark = text.lastIndexOf('… (');
  const end = mark !== -1 && /^… \(\d+ more characters?\)$/.test(text.slice(mark)) ? mark : text.length;
  // The header's run, from the last `eyJ` before the end, may be followed by what the cut left of the rest: a
  // separator or its start (`%5Cx5`, ` -`), then the start of the claims (`eyJzY2`): at most 40 characters.
  for (
    let at = text.lastIndexOf('eyJ', end - 3);
    at !== -1 && at >= end - 256;
    at = at > 0 ? text.lastIndexOf('eyJ', at - 1) : -1
  ) {
    const header = runEnd(text, at);
    if (end - header > 40) break;
    if (header - at >= 16 && isCutRest(text.slice(header, end)) && namesAlg(text.slice(at, Math.min(header, at + 128))))
      return `${text.slice(0, at)}[redacted]${text.slice(end)}`;
  }
  return text;
}

/**
 * Whether `tail`, after a header, is what a cut left of a token's rest: nothing; a separator or its start (no letter
 * at all, as spaces, dashes or digits, or no space and no three letters in a row but the entities' words: `%5Cx5`,
 * `\u{0000`, `&bso`), then maybe the start of the claims, fewer than 16 characters of them (`e`, `eyJzY2`).
 */
function isCutRest(tail: string): boolean {
  const separator = (part: string) =>
    /^[^a-z]*$/i.test(part) || (!/\s/.test(part) && !/[a-z]{3}/i.test(part.replace(/bsol|bso|amp/gi, '')));
  if (separator(tail)) return true;
  for (let claims = tail.lastIndexOf('e'); claims > 0; claims = tail.lastIndexOf('e', claims - 1)) {
    const start = tail.slice(claims);
    const claimsStart = /^[\w-]{1,15}$/.test(start) && ('eyJ'.startsWith(start) || start.startsWith('eyJ'));
    if (claimsStart && separator(tail.slice(0, claims))) return true;
  }
  return false;
}

// A run of base64url characters, from where it is read on; and where a JWT may start within one.
const RUN = /[\w-]*/y;
const EYJ = /eyJ/gi;

/** Where the run of base64url characters that `at` is in ends. */
function runEnd(text: string, at: number): number {
  RUN.lastIndex = at;
  RUN.exec(text);
  return RUN.lastIndex;
}

/**
 * `text` with each match of {@link JWT_FORMS} replaced, tried once per run of base64url characters, from its first
 * `eyJ`: tried from each `eyJ`, a run of thousands of them (`eyJa-eyJb-…`) was read to its end from each, and 400 KB
 * took minutes. A match from a later `eyJ` of a run is within one from its first.
 */
function withoutDottedJwts(text: string): string {
  let out = '';
  let last = 0;
  EYJ.lastIndex = 0;
  for (let start = EYJ.exec(text); start; start = EYJ.exec(text)) {
    JWT_FORMS.lastIndex = start.index;
    const match = JWT_FORMS.exec(text);
    if (!match) {
      EYJ.lastIndex = runEnd(text, start.index);
      continue;
    }
    out += `${text.slice(last, start.index)}[redacted]`;
    last = EYJ.lastIndex = start.index + match[0].length;
  }
  return out + text.slice(last);
}

/**
 * `text` with each JWT whose parts are joined by anything replaced: from each place a header may start that names
 * its `alg` (a base64 cursor before a token, `{"page":1}`, is none, and the search goes on after it, where the
 * token's own header starts), `whole` (sticky) is matched, the header being the shortest run another part follows.
 */
function withoutJoinedJwts(text: string, whole: RegExp): string {
  let out = '';
  let last = 0;
  HEADER_START.lastIndex = 0;
  for (let start = HEADER_START.exec(text); start; start = HEADER_START.exec(text)) {
    const at = start.index;
    if (!namesAlg(text.slice(at, at + 128))) {
      HEADER_START.lastIndex = at + 1;
      continue;
    }
    whole.lastIndex = at;
    const match = whole.exec(text);
    // None from a header: none from a later one of its run either (the header may run over it).
    if (!match) {
      HEADER_START.lastIndex = runEnd(text, at);
      continue;
    }
    // What follows as claims is a header itself (a log's `{"alg":"none"}` before the token): when a whole token starts
    // there, it is the one, or its signature would be left after this match.
    const claimsAt = match.indices![1]![0];
    if (namesAlg(text.slice(claimsAt, claimsAt + 128))) {
      whole.lastIndex = claimsAt;
      if (whole.exec(text)) {
        HEADER_START.lastIndex = claimsAt;
        continue;
      }
    }
    out += `${text.slice(last, at)}[redacted]`;
    last = HEADER_START.lastIndex = at + match[0].length;
  }
  return out + text.slice(last);
}

/**
 * Whether base64url text starts a JWT's header: JSON naming its `alg` in its first 96 bytes (after a `kid` of 60
 * characters, where headers put it first or second).
 */
const namesAlg = (start: string): boolean => decodedStart(start).includes('"alg"');

/** The leading run of base64url characters of `text`, decoded in whole groups of four ('' when it is none). */
function decodedStart(text: string): string {
  const run = /^[\w-]*/.exec(text)![0].replace(/-/g, '+').replace(/_/g, '/');
  try {
    return atob(run.slice(0, run.length - (run.length % 4)));
  } catch {
    return '';
  }
}
