// redactText, what svc dev's bridge runs over everything an agent is told: a real ES256 token joined at its dots in
// the ways loggers, encoders and escapes write them leaves nothing of itself; prose and short base64 cursors stay.
import { generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { redactText } from '../../src/protocol/redactText';
import { SvcError } from '../../src/protocol/SvcError';

let token: string;
let parts: string[];

beforeAll(async () => {
  const { privateKey } = await generateKeyPair('ES256');
  token = await new SignJWT({ scope: 'polls.read', act: { sub: 'agent-7' } })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setSubject('au-alice')
    .setAudience('https://polls.example')
    .setExpirationTime('5m')
    .sign(privateKey);
  parts = token.split('.');
});

/** Whether any part of the token (its header, claims or signature) is still in `text`. */
const leaks = (text: string) =>
  parts.some((part) => text.includes(part.slice(-12)) || text.includes(part.slice(0, 12)));

describe('a JWT joined by up to 16 characters, escapes or entities that are no letters or digits', () => {
  // What outside checks sent: dashes and underscores with spaces, dots or line breaks beside them (an arrow, a list's
  // dash), C's octal and ES2015's braced escapes, an escape whose backslash is itself URL-encoded, HTML-escaped or
  // JSON-escaped, entities escaped again and again.
  const separators = [
    ' - ',
    ' -- ',
    ' _ ',
    ' -',
    ' -> ',
    '\t-\t',
    '-\n-',
    '\n-\n',
    '.-.',
    '._.',
    '.__.',
    '. - .',
    '.-.-.-.-.-.-.-.-',
    '\\056',
    '\\012',
    '\\u{2e}',
    '%5Cn',
    '%255Cn',
    '&#92;n',
    '\\u005Cn',
    '&amp;amp;#46;',
    '&amp;amp;amp;#46;',
    '-',
    '_',
    '..',
    '\r\n',
    '\n\n',
    '\\r\\n',
    '\\x2e',
    '%u00B7',
    '&amp;#46;',
    '%E2%80%8B',
    '\u00b7',
    // The backslash of a written-out line break escaped itself (a second check's list).
    '\\x5Cn',
    '\\x5Cr\\x5Cn',
    '\\x5C056',
    '\\x5Cx2e',
    '\\u{5C}n',
    '\\134n',
    '&bsol;n',
    // And more spellings of it (a third check's list).
    '&#0092;n',
    '&#x005c;n',
    '\\x{5C}n',
    '\\U0000005Cn',
    '%u005Cn',
    '%26bsol%3Bn',
    // A full stop's escape with more leading zeros than its shortest form, and an escape of a backslash whose own
    // backslash is URL- or entity-encoded (a fourth check's list).
    '\\u{000002E}',
    '\\u{00000002e}',
    '\\x{0000002E}',
    '&#x0000002E;',
    '&#x00000002E;',
    '&#000000046;',
    '&#0000000046;',
    '%5Cx5Cn',
    '%5Cu005Cn',
    '%5C134n',
    '%5C%5Cx5Cn',
    '\\%5Cx5Cn',
    '&#x5c;x5Cn',
    // An octal escape with a leading zero, and Perl's braced octal (a fifth check's list).
    '\\0056',
    '\\00056',
    '%5C0056',
    '&#x5c;0056',
    '\\o{056}',
  ];
  for (const separator of separators)
    it(`takes the whole token, joined by ${JSON.stringify(separator)}`, () => {
      const said = redactText(`before ${parts.join(separator)} after. Next sentence.`);
      expect(said).toBe('before [redacted] after. Next sentence.');
      expect(leaks(said)).toBe(false);
    });

  it('takes a signature a redaction before left, its dots doubled or 16 of them', () => {
    for (const dots of ['..', '.'.repeat(16), '..%E2%80%8B..'])
      expect(leaks(redactText(`E before [redacted]${dots}[redacted]${dots}${parts[2]} after.`))).toBe(false);
  });
});

describe('a JWT a line wrap or an invisible character breaks inside a part', () => {
  // What an outside check sent through MCP: the token folded every 64 characters as a logger does, or at 76 with CRLF
  // as MIME does, whatever its dots; a zero-width space inside its claims. Only its first line was redacted.
  const wrapped = (width: number, lineBreak: string) => token.match(new RegExp(`.{1,${width}}`, 'g'))!.join(lineBreak);
  for (const [width, lineBreak] of [
    [64, '\n'],
    [76, '\r\n'],
    [64, '\\n'],
    [64, '\n    '],
    [20, '\n'],
    [64, '\r'],
    [64, '\u2028'],
    [64, '\u0085'],
    [64, '\\\\n'],
    [64, '\n\n'],
    [64, '\n> '],
    [76, '=\r\n'],
    [3, '\n'],
  ] as const)
    it(`takes the whole token folded at ${width} by ${JSON.stringify(lineBreak)}, and leaves the prose around it`, () => {
      for (const [text, said] of [
        [`failed with ${wrapped(width, lineBreak)}`, 'failed with [redacted]'],
        [`{"echoed":"${wrapped(width, lineBreak)}"}`, '{"echoed":"[redacted]"}'],
        [`failed with ${wrapped(width, lineBreak)} and more.`, 'failed with [redacted] and more.'],
        [`${wrapped(width, lineBreak)}.\nThe next line is prose.`, '[redacted].\nThe next line is prose.'],
        [`Authorization: Bearer ${wrapped(width, lineBreak)}"`, 'Authorization: Bearer [redacted]"'],
      ])
        expect(redactText(text!)).toBe(said);
    });

  it('takes a token with a zero-width space, a joiner or a soft hyphen inside a part', () => {
    for (const invisible of ['\u200b', '\u200d', '\u00ad', '\u2060'])
      for (const at of [10, 60, token.length - 20]) {
        const said = redactText(`failed with ${token.slice(0, at)}${invisible}${token.slice(at)} here.`);
        expect(said).toBe('failed with [redacted] here.');
      }
  });

  it('reads on only while the token is not whole: the next line of a whole token, or of a short one, stays', () => {
    expect(redactText(`${token}\n${'A'.repeat(40)}`)).toBe(`[redacted]\n${'A'.repeat(40)}`);
    // A header and claims broken at a line whose next line is prose: the prose stays.
    const [header, claims] = parts;
    expect(redactText(`${header}.${claims!.slice(0, 20)}\n${claims!.slice(20)}\nNext: prose here.`)).toBe(
      '[redacted]\nNext: prose here.',
    );
    // No header naming an alg: a base64 of JSON folded at 64 (a document, not a token) stays.
    const document = btoa(JSON.stringify({ page: 1, items: 'x'.repeat(120) }))
      .match(/.{1,64}/g)!
      .join('\n');
    expect(redactText(document)).toBe(document);
  });

  it('reads a text of millions of lines of eyJ once', () => {
    // The last: every other line starts as a header naming its alg (`{"alg":`), and no second part comes: 142 KB of
    // such lines took 1.3 s when each was read on from itself.
    for (const text of [
      `${'eyJ'}${'a'.repeat(60)}\n`.repeat(100_000),
      `eyJ${'A'.repeat(8 << 20)}\n${'A'.repeat(64)}`,
      `eyJhbGciOi${'A'.repeat(60)}\n${'A'.repeat(64)}\n`.repeat(50_000),
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('what is not a token', () => {
  it('leaves prose, versions, addresses and the word eyJ as they are', () => {
    const prose = 'Version 1.2.3 of e.g. the docs; mail a.b@c.d; eyJ is a prefix. Ends here - twice -- well.';
    expect(redactText(prose)).toBe(prose);
  });

  it('takes a token whole after a base64 cursor or id, and leaves the cursors: no header but names its alg', () => {
    const cursor = btoa('{"page":1234}').replace(/=+$/, '');
    const ids = ['{"id":"a1b2c3d4"}', '{"id":"e5f6g7h8"}', '{"id":"i9j0k1l2"}'].map((id) =>
      btoa(id).replace(/=+$/, ''),
    );
    expect(redactText(`next ${cursor} ${parts.join('.')} end`)).toBe(`next ${cursor} [redacted] end`);
    expect(redactText(`${cursor}-${parts.join('-')}`)).toBe(`${cursor}-[redacted]`);
    expect(redactText(ids.join(' '))).toBe(ids.join(' '));
    expect(redactText(`${ids.join(' ')} ${parts.join(' . ')}`)).toBe(`${ids.join(' ')} [redacted]`);
    // A header logged before the token (`{"alg":"none"}`): the token is taken whole, its signature too.
    const logged = btoa('{"alg":"none"}').replace(/=+$/, '');
    expect(redactText(`${logged} ${parts.join('.')} done`)).toBe(`${logged} [redacted] done`);
  });

  it('leaves short base64 cursors of JSON (`{"page":1}`) and the id after them: they are no token\'s parts', () => {
    for (const text of [
      '[eyJhIjoxfQ, eyJhIjoyfQ, eyJhIjozfQ]',
      'prev eyJwYWdlIjoxfQ / eyJwYWdlIjozfQ / abcDEF123 end',
      'next: eyJwYWdlIjoxfQ-eyJwYWdlIjoyfQ',
    ])
      expect(redactText(text)).toBe(text);
  });
});

describe('a text of millions of characters', () => {
  // A long run overflowed the regular expressions' stack (`{13,}` over it, a group repeated without bound), and the
  // agent got an internal error instead of the result: each shape is redacted, or left, whole.
  const run = 'A'.repeat(8 << 20);
  it('is redacted where it holds a token, and left where it does not, without failing', () => {
    expect(redactText(`eyJ${run}`)).toBe(`eyJ${run}`);
    expect(redactText(`eyJ${'a'.repeat(20)}.eyJ${run}`)).toBe('[redacted]');
    expect(redactText(`[redacted]${'.'.repeat(16)}${run}`)).toBe('[redacted]');
    const folded = `Basic ${'QUFBQUFBQUFBQUFBQUFBQUFB\r\n'.repeat(300_000)}`;
    expect(redactText(folded).startsWith('Basic ')).toBe(true);
    expect(redactText(`Bearer ${run}`)).toBe('Bearer [redacted]');
    // A header, then millions of backslashes or zeros of an escape that never ends: left as it is.
    const header = parts[0]!;
    for (const tail of ['\\'.repeat(8 << 20), `\\u{${'0'.repeat(8 << 20)}`, `&#x${'0'.repeat(8 << 20)}`])
      expect(redactText(`${header}${tail}`)).toBe(`${header}${tail}`);
  });

  it("cuts an SvcError's message before it looks for tokens in it (a megabyte of eyJa- held the messenger a minute)", () => {
    const error = new SvcError('ERR_INTERNAL', 'eyJa-'.repeat(1_000_000));
    expect(error.message).toBe('eyJa-'.repeat(200));
    expect(new SvcError('ERR_INTERNAL', `failed for ${token}`).message).toBe('failed for [redacted]');
  });

  it('reads runs of thousands of eyJ once (from each of them, 400 KB took minutes), and leaves what is no token', () => {
    // No part of 16 characters, or none naming an alg: no token; dotted, each as a cut JWT's parts.
    for (const text of ['eyJa-'.repeat(100_000), `${'eyJ'}${'a'.repeat(13)}-`.repeat(20_000)])
      expect(redactText(text)).toBe(text);
    expect(redactText('eyJa.'.repeat(100_000))).toMatch(/^(?:\[redacted\]\.?)+$/);
    expect(redactText(`${'eyJa-'.repeat(100_000)} ${parts.join('.')}`).endsWith(' [redacted]')).toBe(true);
  });
});

describe('a token a cut left its header of', () => {
  it('takes the header that ends a text, or comes right before the count of what a cut left out', () => {
    const header = parts[0]!;
    expect(redactText(`failed: ${header}`)).toBe('failed: [redacted]');
    expect(redactText(`${'q'.repeat(10)}${header.slice(0, 30)}… (250 more characters)`)).toBe(
      `${'q'.repeat(10)}[redacted]… (250 more characters)`,
    );
    expect(redactText(`q${header}… (1 more character)`)).toBe('q[redacted]… (1 more character)');
    // The cut went through the separator after the header: what is left of it goes with the header.
    for (const left of ['%5Cx5', '\\u{00000', '&#x00000', ' -', '&bso'])
      expect(redactText(`q ${header}${left}… (300 more characters)`)).toBe('q [redacted]… (300 more characters)');
    // And through the start of the claims after the separator (a sixth check's list): the header goes too.
    const claims = parts[1]!;
    for (const [separator, kept] of [
      ['%5Cx5Cn', 1],
      [' - ', 5],
      ['\n', 15],
      ['\\x5Cn', 3],
      ['&#46;', 8],
      ['\\u{000002E}', 3],
    ] as const) {
      const cut = `q ${header}${separator}${claims.slice(0, kept)}`;
      expect(redactText(`${cut}… (300 more characters)`)).toBe('q [redacted]… (300 more characters)');
      expect(redactText(cut)).toBe('q [redacted]');
    }
    // Prose after a header is no separator: a header named in a sentence stays.
    expect(redactText(`the header ${header} is invalid.`)).toBe(`the header ${header} is invalid.`);
    // A cursor that ends the text is none: it names no alg.
    const cursor = btoa('{"page":1234}').replace(/=+$/, '');
    expect(redactText(`next ${cursor}… (9 more characters)`)).toBe(`next ${cursor}… (9 more characters)`);
  });
});

describe('Bearer in prose, and as a header', () => {
  it('keeps the word after Bearer in a sentence, and redacts every credential after it (mcp47 F1)', () => {
    for (const prose of [
      'Use a Bearer token in the Authorization header',
      'The Bearer of bad news',
      'Send it as a Bearer Token.',
    ])
      expect(redactText(prose)).toBe(prose);
    for (const [text, shown] of [
      ['Authorization: Bearer abc123', 'Authorization: Bearer [redacted]'],
      ['Bearer sk_live_51HxQ', 'Bearer [redacted]'],
      ['Bearer hunter2', 'Bearer [redacted]'],
      ['Bearer ABCDEFGH', 'Bearer [redacted]'],
      ['Bearer aVeryLongTokenOfLetters', 'Bearer [redacted]'],
      ['Bearer mixedCase', 'Bearer [redacted]'],
      ['"Bearer","token"', '"Bearer","[redacted]"'],
      ['Bearer:token', 'Bearer:[redacted]'],
    ] as const)
      expect(redactText(text)).toBe(shown);
    expect(redactText(`Bearer ${token}`)).toBe('Bearer [redacted]');
  });
});
