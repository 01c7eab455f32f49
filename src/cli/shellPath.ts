import { shellWord } from './shellWord';

/**
 * A path given to a printed command as its operand, as a shell reads it back whole ({@link shellWord}); a relative
 * path starting with `-` is written `./-…`, or `cd`, `chmod` and `npx` would read it as an option (recheck47 F1).
 */
export const shellPath = (path: string): string => shellWord(path.startsWith('-') ? `./${path}` : path);
