/**
 * A path as a POSIX shell reads it back whole: as it is when it holds only characters no shell treats specially,
 * else in single quotes (a `'` inside written `'\''`), so a printed command runs as printed whatever the path holds.
 * A relative path starting with `-` is written `./-…`, or `cd`, `chmod` and `npx` would read it as an option
 * (recheck47 F1).
 */
export const shellWord = (path: string): string => {
  const operand = path.startsWith('-') ? `./${path}` : path;
  return /^[\w@%+=:,./-]+$/.test(operand) ? operand : `'${operand.replaceAll("'", `'\\''`)}'`;
};
