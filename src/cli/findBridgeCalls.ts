import type { TypeScriptApi } from './CliIo';
import type * as TS from 'typescript';

/**
 * A call to the bridge found in source code by {@link findBridgeCalls}.
 * @public
 */
export interface BridgeCall {
  /** `handle` for `svc.actions.handle`, otherwise the `svc.auth` method called. */
  kind: 'handle' | 'getToken' | 'signIn';
  /** The action name when the first argument of `handle` is a string literal; `undefined` when it is computed. */
  name?: string;
  /** 1-based line and column of the call. */
  line: number;
  column: number;
}

const GLOBALS = new Set(['globalThis', 'window', 'self']);
const METHODS: Record<string, { of: 'actions' | 'auth'; kind: BridgeCall['kind'] }> = {
  handle: { of: 'actions', kind: 'handle' },
  getToken: { of: 'auth', kind: 'getToken' },
  signIn: { of: 'auth', kind: 'signIn' },
};

/**
 * Finds `svc.actions.handle(...)`, `svc.auth.getToken()` and `svc.auth.signIn()` calls in one source file by parsing
 * it, so that comments, strings and look-alike names never count.
 *
 * @remarks
 * Recognised receivers: `svc`, `globalThis.svc`, `window.svc`, `self.svc`, `svc` imported from `svc-sdk` under any
 * name, and aliases made with `const`/`let`/`var` such as `const { actions } = svc`, `const a = svc.actions` or
 * `const { handle } = svc.actions`. Aliases are tracked per file, not per scope: a shadowing local variable with the
 * same name would be taken for the bridge, which errs on the side of finding a handler.
 * @public
 */
export function findBridgeCalls(ts: TypeScriptApi, fileName: string, text: string): BridgeCall[] {
  const kind = /\.tsx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[mc]?ts$/.test(fileName) ? ts.ScriptKind.TS : /\.jsx$/.test(fileName) ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const svc = new Set(['svc']);
  const namespaces = { actions: new Set<string>(), auth: new Set<string>() };
  const methods = new Map<string, BridgeCall['kind']>();

  const strip = (node: TS.Expression): TS.Expression => {
    let current = node;
    while (ts.isParenthesizedExpression(current) || ts.isNonNullExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) current = current.expression;
    return current;
  };
  const memberName = (node: TS.Expression): [TS.Expression, string] | undefined => {
    if (ts.isPropertyAccessExpression(node)) return [node.expression, node.name.text];
    if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) return [node.expression, node.argumentExpression.text];
    return undefined;
  };
  const isSvc = (node: TS.Expression): boolean => {
    const e = strip(node);
    if (ts.isIdentifier(e)) return svc.has(e.text);
    const member = memberName(e);
    return member !== undefined && member[1] === 'svc' && ts.isIdentifier(strip(member[0])) && GLOBALS.has((strip(member[0]) as TS.Identifier).text);
  };
  const isNamespace = (node: TS.Expression, of: 'actions' | 'auth'): boolean => {
    const e = strip(node);
    if (ts.isIdentifier(e)) return namespaces[of].has(e.text);
    const member = memberName(e);
    return member !== undefined && member[1] === of && isSvc(member[0]);
  };
  const bind = (name: TS.BindingName, init: TS.Expression): boolean => {
    const before = svc.size + namespaces.actions.size + namespaces.auth.size + methods.size;
    if (ts.isIdentifier(name)) {
      if (isSvc(init)) svc.add(name.text);
      for (const of of ['actions', 'auth'] as const) if (isNamespace(init, of)) namespaces[of].add(name.text);
    } else if (ts.isObjectBindingPattern(name)) {
      for (const element of name.elements) {
        const key = element.propertyName ?? element.name;
        if (!ts.isIdentifier(key) || !ts.isIdentifier(element.name)) continue;
        if (isSvc(init) && (key.text === 'actions' || key.text === 'auth')) namespaces[key.text].add(element.name.text);
        const method = METHODS[key.text];
        if (method && isNamespace(init, method.of)) methods.set(element.name.text, method.kind);
      }
    }
    return svc.size + namespaces.actions.size + namespaces.auth.size + methods.size !== before;
  };

  const declarations: TS.VariableDeclaration[] = [];
  const collect = (node: TS.Node): void => {
    if (ts.isVariableDeclaration(node) && node.initializer) declarations.push(node);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('svc-sdk')) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const spec of bindings.elements) if ((spec.propertyName ?? spec.name).text === 'svc') svc.add(spec.name.text);
      }
    }
    ts.forEachChild(node, collect);
  };
  collect(file);
  // Aliases can build on each other in any order (`const s = svc; const { actions } = s;`): repeat until stable.
  for (let round = 0; round < 5 && declarations.some((d) => bind(d.name, d.initializer as TS.Expression)); round++);

  const calls: BridgeCall[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = strip(node.expression);
      const member = memberName(callee);
      let found: BridgeCall['kind'] | undefined;
      if (member) {
        const method = METHODS[member[1]];
        if (method && isNamespace(member[0], method.of)) found = method.kind;
      } else if (ts.isIdentifier(callee)) found = methods.get(callee.text);
      if (found) {
        const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
        const call: BridgeCall = { kind: found, line: line + 1, column: character + 1 };
        const first = node.arguments[0] && strip(node.arguments[0]);
        if (found === 'handle' && first && ts.isStringLiteralLike(first)) call.name = first.text;
        calls.push(call);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}
