import { parse } from '@babel/parser';

/**
 * A call to the bridge found in source code by {@link findBridgeCalls}.
 * @public
 */
export interface BridgeCall {
  /** `handle` for `svc.actions.handle`, `request` for `svc.permissions.request`, otherwise the `svc.auth` method. */
  kind: 'handle' | 'getToken' | 'signIn' | 'request';
  /** The action name of `handle`, or the scope of `request`, when the first argument is a literal string. */
  name?: string;
  /** 1-based line and column of the call. */
  line: number;
  column: number;
}

type Namespace = 'actions' | 'auth' | 'permissions';
// A Babel AST node, read structurally: the parser's own types are not worth a dependency of the CLI's types.
type Node = { type: string; loc?: { start: { line: number; column: number } } | null; [key: string]: unknown };

const GLOBALS = new Set(['globalThis', 'window', 'self']);
const METHODS: Record<string, { of: Namespace; kind: BridgeCall['kind'] }> = {
  handle: { of: 'actions', kind: 'handle' },
  getToken: { of: 'auth', kind: 'getToken' },
  signIn: { of: 'auth', kind: 'signIn' },
  request: { of: 'permissions', kind: 'request' },
};
const WRAPPERS = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'ParenthesizedExpression',
  'TypeCastExpression',
]);

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

type Plugins = ('typescript' | 'jsx')[];

/** Parser plugins by file type: `.ts` files keep `<T>x` type assertions, which JSX would misread. */
function pluginsFor(fileName: string): Plugins {
  if (/\.tsx$/.test(fileName)) return ['typescript', 'jsx'];
  if (/\.[mc]?ts$/.test(fileName)) return ['typescript'];
  return ['jsx'];
}

/** A script to parse: its text, its parser plugins, and where it starts in its file (1-based line, 0-based column). */
interface Script {
  text: string;
  plugins: Plugins;
  line: number;
  column: number;
}

// A `<script>` element: its opening tag (whose quoted attributes may hold a `>`, as Vue's `generic="T extends
// Record<string, unknown>"` does), its text, and its end tag. The tag's text between quoted values is one run each,
// as the package server reads a start tag.
const SCRIPT_ELEMENT = /(<script\b[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>)([\s\S]*?)<\/script\s*>/gi;
// The script types that hold JavaScript; any other (`application/json`, `importmap`, templates) is data.
const SCRIPT_TYPE = /^(?:module|(?:text|application)\/(?:java|ecma)script)$/i;

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined);

/**
 * The scripts of a file: the whole file for JavaScript and TypeScript, and each inline `<script>` element of a Vue
 * or Svelte component (TypeScript with `lang="ts"`, also TSX with `lang="tsx"`) or of an HTML page (a page that
 * loads the script-tag client often keeps its code inline). Each keeps its place in the file, so that a finding
 * points at the right line.
 */
function scriptsOf(fileName: string, text: string): Script[] {
  if (!/\.(?:vue|svelte|html?)$/i.test(fileName)) return [{ text, plugins: pluginsFor(fileName), line: 1, column: 0 }];
  const scripts: Script[] = [];
  for (const match of text.matchAll(SCRIPT_ELEMENT)) {
    const [, tag, body] = match as unknown as [string, string, string];
    const type = attribute(tag, 'type');
    if (type !== undefined && !SCRIPT_TYPE.test(type)) continue;
    const start = match.index + tag.length;
    const before = text.slice(0, start);
    const lang = attribute(tag, 'lang')?.toLowerCase();
    scripts.push({
      text: body,
      plugins: lang === 'tsx' ? ['typescript', 'jsx'] : lang === 'ts' ? ['typescript'] : ['jsx'],
      line: before.split('\n').length,
      column: start - (before.lastIndexOf('\n') + 1),
    });
  }
  return scripts;
}

/** Every child node, in source order. */
function* children(node: Node): Generator<Node> {
  for (const key of Object.keys(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) yield item;
    } else if (isNode(value)) yield value;
  }
}

/** The text of a string literal, or of a template literal without expressions. */
function literalText(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0)
    return ((node.quasis as Node[])[0]?.value as { cooked?: string })?.cooked;
  return undefined;
}

/**
 * Finds `svc.actions.handle(...)`, `svc.auth.getToken()`, `svc.auth.signIn()` and `svc.permissions.request(...)`
 * calls in one source file by parsing it, so that comments, strings and look-alike names never count: a JavaScript
 * or TypeScript file, or the `<script>` elements of a Vue or Svelte component or an HTML page.
 *
 * @remarks
 * Parses with `@babel/parser` (TypeScript, JSX and plain JavaScript), which ships with svc-sdk: the check does not
 * depend on the TypeScript compiler the project has installed, nor on its version. Recognised receivers: `svc`,
 * `globalThis.svc`, `window.svc`, `self.svc`, `svc` imported from `svc-sdk` under any name, and aliases made with
 * `const`/`let`/`var` such as `const { actions } = svc`, `const a = svc.actions` or `const { handle } = svc.actions`.
 * Aliases are tracked per file, not per scope: a shadowing local with the same name would be taken for the bridge,
 * which errs on the side of finding a handler.
 * @throws SyntaxError when a file that names `svc` cannot be parsed (one that does not, holding no call, is not read).
 * @public
 */
export function findBridgeCalls(fileName: string, text: string): BridgeCall[] {
  // Every receiver it knows is named `svc` (or imported from svc-sdk), a name of its own, also written with a `\u`
  // escape: a file with neither, such as a library's bundle, holds no call and is not parsed (the parser's tree takes
  // about 100 MB per MB of code). `msvc` or `svcs` is another name.
  if (!/(?<![\w$])svc(?![\w$])/.test(text) && !text.includes('\\u')) return [];
  const files = scriptsOf(fileName, text).map(
    (script) =>
      parse(script.text, {
        sourceType: 'unambiguous',
        plugins: script.plugins,
        errorRecovery: true,
        // Comments are skipped (never a call): not attached to the tree, which saves its memory.
        attachComment: false,
        startLine: script.line,
        startColumn: script.column,
      }) as unknown as Node,
  );
  const svc = new Set(['svc']);
  const namespaces: Record<Namespace, Set<string>> = { actions: new Set(), auth: new Set(), permissions: new Set() };
  const methods = new Map<string, BridgeCall['kind']>();

  const strip = (node: Node): Node => {
    let current = node;
    while (WRAPPERS.has(current.type) && isNode(current.expression)) current = current.expression;
    return current;
  };
  const memberName = (node: Node): [Node, string] | undefined => {
    if (node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') return undefined;
    const property = node.property as Node;
    const name = node.computed
      ? literalText(property)
      : property.type === 'Identifier'
        ? (property.name as string)
        : undefined;
    return name === undefined ? undefined : [node.object as Node, name];
  };
  const isSvc = (node: Node): boolean => {
    const e = strip(node);
    if (e.type === 'Identifier') return svc.has(e.name as string);
    const member = memberName(e);
    if (member?.[1] !== 'svc') return false;
    const owner = strip(member[0]);
    return owner.type === 'Identifier' && GLOBALS.has(owner.name as string);
  };
  const isNamespace = (node: Node, of: Namespace): boolean => {
    const e = strip(node);
    if (e.type === 'Identifier') return namespaces[of].has(e.name as string);
    const member = memberName(e);
    return member !== undefined && member[1] === of && isSvc(member[0]);
  };
  const size = () =>
    svc.size + namespaces.actions.size + namespaces.auth.size + namespaces.permissions.size + methods.size;
  const bind = (id: Node, init: Node): boolean => {
    const before = size();
    if (id.type === 'Identifier') {
      const name = id.name as string;
      if (isSvc(init)) svc.add(name);
      for (const of of ['actions', 'auth', 'permissions'] as const) if (isNamespace(init, of)) namespaces[of].add(name);
    } else if (id.type === 'ObjectPattern') {
      for (const property of id.properties as Node[]) {
        if (property.type !== 'ObjectProperty' || property.computed) continue;
        const key = property.key as Node;
        const value = property.value as Node;
        const local = value.type === 'AssignmentPattern' ? (value.left as Node) : value;
        if (key.type !== 'Identifier' || local.type !== 'Identifier') continue;
        const keyName = key.name as string;
        if (isSvc(init) && (keyName === 'actions' || keyName === 'auth' || keyName === 'permissions'))
          namespaces[keyName].add(local.name as string);
        const method = METHODS[keyName];
        if (method && isNamespace(init, method.of)) methods.set(local.name as string, method.kind);
      }
    }
    return size() !== before;
  };

  const declarations: [Node, Node][] = [];
  const calls: Node[] = [];
  const collect = (node: Node): void => {
    if (node.type === 'VariableDeclarator' && isNode(node.init)) declarations.push([node.id as Node, node.init]);
    if (node.type === 'ImportDeclaration' && String((node.source as Node).value).startsWith('svc-sdk')) {
      for (const spec of node.specifiers as Node[]) {
        const imported = spec.imported as Node | undefined;
        if (spec.type === 'ImportSpecifier' && (imported?.name ?? imported?.value) === 'svc')
          svc.add((spec.local as Node).name as string);
      }
    }
    if (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') calls.push(node);
    for (const child of children(node)) collect(child);
  };
  // The scripts of one component share its aliases (Vue's `<script>` and `<script setup>`, Svelte's module script).
  for (const file of files) collect(file);
  // Aliases can build on each other in any order (`const s = svc; const { actions } = s;`): repeat until stable.
  for (let round = 0; round < 5 && declarations.some(([id, init]) => bind(id, init)); round++);

  const found: BridgeCall[] = [];
  for (const node of calls) {
    const callee = strip(node.callee as Node);
    const member = memberName(callee);
    let kind: BridgeCall['kind'] | undefined;
    if (member) {
      const method = Object.hasOwn(METHODS, member[1]) ? METHODS[member[1]] : undefined;
      if (method && isNamespace(member[0], method.of)) kind = method.kind;
    } else if (callee.type === 'Identifier') kind = methods.get(callee.name as string);
    if (!kind) continue;
    const start = node.loc!.start;
    const call: BridgeCall = { kind, line: start.line, column: start.column + 1 };
    const first = (node.arguments as Node[])[0];
    const name = (kind === 'handle' || kind === 'request') && first ? literalText(strip(first)) : undefined;
    if (name !== undefined) call.name = name;
    found.push(call);
  }
  return found;
}
