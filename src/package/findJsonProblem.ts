import { MAX_MANIFEST_DEPTH } from '../manifest/validateManifest';

/** One open array or object, and the name of the value being read in it, for a path such as `$.actions[0]`. */
interface Frame {
  object: boolean;
  /** The keys met so far, decoded (an object's). */
  keys: Set<string>;
  /** In an object: whether the next string is a key. */
  expectKey: boolean;
  /** The current key (object) or index (array). */
  at: string | number;
}

const segmentOf = (at: string | number) =>
  typeof at === 'number' ? `[${at}]` : /^[A-Za-z_$][\w$]*$/.test(at) ? `.${at}` : `[${JSON.stringify(at)}]`;

/**
 * The path of the open frames' values, from the root, cut to a length a message can show (`$.actions[0]`). Built
 * only for the answer: a path kept in every frame would cost the square of the depth (a text 100,000 deep took a
 * minute).
 */
const pathOf = (frames: readonly Frame[]) => {
  let path = '$';
  for (const frame of frames) {
    path += segmentOf(frame.at);
    if (path.length > 120) return `${path.slice(0, 120)}…`;
  }
  return path;
};

/** What {@link findJsonProblem} finds: an object that repeats a key, or arrays and objects nested too deep. */
export type JsonProblem = { repeatedKey: string; path: string } | { tooDeep: true; path: string };

/**
 * What `JSON.parse` reads but a reader in another language may read otherwise, or undefined: an object that repeats a
 * key (compared decoded: `"a"` and `"\u0061"` are one; JavaScript keeps the last, other parsers the first or refuse
 * it, so two readers would see two values in one text), or arrays and objects nested more than `maxDepth` deep. One
 * pass over the text, without recursion, so a deep text costs no stack. `path` is where, cut to a length a message
 * can show (`$.actions[0]`).
 * @param text - JSON that `JSON.parse` accepts.
 * @internal
 */
export function findJsonProblem(text: string, maxDepth = Number.POSITIVE_INFINITY): JsonProblem | undefined {
  const stack: Frame[] = [];
  const top = () => stack[stack.length - 1];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const frame = top();
      if (frame?.object && frame.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        // The path of the object, not of the key's value.
        if (frame.keys.has(key)) return { repeatedKey: key, path: pathOf(stack.slice(0, -1)) };
        frame.keys.add(key);
        frame.at = key;
        frame.expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      if (stack.length === maxDepth) return { tooDeep: true, path: pathOf(stack) };
      stack.push({ object: c === '{', keys: new Set(), expectKey: c === '{', at: 0 });
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const frame = top()!;
      if (frame.object) frame.expectKey = true;
      else frame.at = (frame.at as number) + 1;
    }
  }
  return undefined;
}

/**
 * Why the manifest's JSON `text` is refused though `JSON.parse` reads it, or undefined: {@link findJsonProblem} with
 * the manifest's depth limit, {@link MAX_MANIFEST_DEPTH}, said as a sentence. A host in another language would read
 * another manifest from a package that repeats a key.
 * @param text - JSON that `JSON.parse` accepts.
 * @internal
 */
export function describeJsonProblem(text: string): string | undefined {
  const problem = findJsonProblem(text, MAX_MANIFEST_DEPTH);
  if (!problem) return undefined;
  return 'repeatedKey' in problem
    ? `it repeats the key ${JSON.stringify(problem.repeatedKey)} in ${problem.path} (parsers differ on which one counts); keep one`
    : `it nests arrays and objects more than ${MAX_MANIFEST_DEPTH} deep (at ${problem.path}); a manifest needs far fewer, so flatten it`;
}
