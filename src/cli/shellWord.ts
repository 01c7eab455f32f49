/**
 * An argument as a POSIX shell reads it back whole: as it is when it holds only characters no shell treats specially,
 * else in single quotes (a `'` inside written `'\''`), so a printed command runs as printed whatever the path holds.
 */
export const shellWord = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
