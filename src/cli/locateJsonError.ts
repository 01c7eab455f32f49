const TOKEN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * Finds the offset of the first syntax error in a JSON text, or `undefined` when it parses.
 *
 * @remarks
 * V8's `JSON.parse` messages only sometimes carry a position (`Unexpected token ']', "[1,]" is not valid JSON`
 * carries none), so a small scanner finds it. It follows RFC 8259 and does no allocation beyond the text.
 */
export function locateJsonError(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new RangeError(String(i));
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) fail();
        i = ESCAPE.lastIndex;
      } else i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        space();
        if (text[i] === close) {
          i++;
          return;
        }
        if (text[i] !== ',') fail();
        i++;
      }
    }
    if (c === '"') {
      string();
      return;
    }
    TOKEN.lastIndex = i;
    if (!TOKEN.test(text)) fail();
    i = TOKEN.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return Number(error.message);
    throw error;
  }
}
