import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSvc } from '../../src/index';
import {
  createHost,
  createMemoryPair,
  methods,
  PEER,
  toApp,
  toHost,
  PERMISSION_SCOPES,
  results,
  SCOPE_TO_MANIFEST,
} from '../../src/host/index';
import { ERROR_CODES } from '../../src/index';
import { APP_FRAME_ALLOW } from '../../src/host/appFrameAllow';
import { APP_FRAME_SANDBOX } from '../../src/host/appFrameSandbox';
import { createMockHost } from '../../src/mock/index';
import { oauthManifest } from '../mock/fixtures';
import { withTable } from '../../scripts/docsTables';
import { CALL_TABLE } from '../../src/protocol/generated/callTable';
import { notificationParams } from '../../src/protocol/notificationParams';
import type { OperationDef } from '../../src/protocol/operations/define';
import { CALL_TABLE_FILE, callTableSource, encodeCallTable } from '../../scripts/callTable';

const names = Object.keys(methods);

describe('the registry is the one contract', () => {
  it('has a facade member for every operation, and no facade member without an operation', () => {
    const { svc } = createSvc({ transport: createMemoryPair()[0] });
    for (const name of names) {
      const [ns, member] = name.split('.') as [string, string];
      expect(typeof (svc as any)[ns][member], name).toBe('function');
    }
    const local = new Set(['app.onThemeChange', 'actions.handle']);
    for (const ns of Object.keys(svc).filter((k) => !['version', 'supports', 'app'].includes(k)))
      for (const member of Object.keys((svc as any)[ns])) {
        const name = `${ns}.${member}`;
        expect(names.includes(name) || local.has(name), `${name} is on the facade but not in the registry`).toBe(true);
      }
  });

  it('has an answer shape for every operation, and a null one exactly for the fire-and-forget ones', () => {
    expect(Object.keys(results).sort()).toEqual([...names].sort());
    for (const name of names)
      expect(results[name as keyof typeof results] === null, name).toBe(
        methods[name as keyof typeof methods].kind === 'notification',
      );
  });

  it('lets a host offer every operation, and advertises exactly the ones it handles', () => {
    const handlers = Object.fromEntries(names.map((n) => [n, () => undefined]));
    expect(
      createHost({
        handlers,
        app: { id: '', version: '', locale: 'en', theme: 'light', launch_params: {} },
      }).snapshot.methods.sort(),
    ).toEqual([...names].sort());
    const some = createHost({
      handlers: { 'room.current': () => null, bogus: () => 1 } as never,
      app: { id: '', version: '', locale: 'en', theme: 'light', launch_params: {} },
    });
    expect(some.snapshot.methods).toEqual(['room.current']);
  });

  it('reaches every host built on the rules: the mock offers every operation with its effects and answers', () => {
    // external-oauth: the auth mode that has every auth call (svc-exchange has no sign-in, none no token).
    const mock = createMockHost({ manifest: oauthManifest(), answers: { confirm: () => true, elicit: () => null } });
    expect([...mock.endpoint.snapshot.methods].sort()).toEqual([...names].sort());
    mock.close();
  });

  it("is the browser suites' list of operations (taken from the registry, not written out)", () => {
    const cases = readFileSync(new URL('../browser/bridgeCases.mjs', import.meta.url), 'utf8');
    expect(cases).toMatch(/const METHODS = Object\.keys\(methods\);/);
  });

  it("names only the platform's short scopes, each mapped to a manifest scope or to none", () => {
    expect([...PERMISSION_SCOPES].sort()).toEqual(Object.keys(SCOPE_TO_MANIFEST).sort());
    for (const name of names) {
      const scope = methods[name as keyof typeof methods].scope;
      if (scope) expect(PERMISSION_SCOPES).toContain(scope);
    }
    expect(methods['room.current'].scope).toBe('room.context');
    expect(methods['message.send'].scope).toBe('room.send');
    expect(methods['files.pick'].scope).toBe('files.read');
    expect(methods['files.save'].scope).toBe('files.write');
  });

  it('marks the operations that wait on a person, which get the long timeout', () => {
    const prompts = names.filter((n) => methods[n as keyof typeof methods].kind === 'prompt').sort();
    expect(prompts).toEqual([
      'actions.elicit',
      'auth.signIn',
      'files.pick',
      'files.save',
      'message.send',
      'permissions.request',
      'ui.confirm',
      'ui.share',
    ]);
  });

  it('checks in the client exactly what nobody answers, with the very check the host uses', () => {
    const notifications = names.filter((n) => methods[n as keyof typeof methods].kind === 'notification');
    expect(Object.keys(notificationParams).sort()).toEqual(notifications.sort());
    for (const name of notifications)
      expect(methods[name as keyof typeof methods].params, name).toBe(
        notificationParams[name as keyof typeof notificationParams],
      );
  });

  it("is what the client's table says, operation by operation", () => {
    expect(CALL_TABLE).toBe(encodeCallTable(methods as Record<string, OperationDef>));
  });

  it("writes the client's table: src/protocol/generated/callTable.ts is what npm run generate:call-table generates", () => {
    const file = readFileSync(new URL(`../../${CALL_TABLE_FILE}`, import.meta.url), 'utf8');
    expect(file, `${CALL_TABLE_FILE} is stale: run npm run generate:call-table`).toBe(callTableSource());
  });

  it('is documented: the app developers guide names every operation and every error code', () => {
    const readme = readFileSync(new URL('../../docs/app.md', import.meta.url), 'utf8');
    for (const name of names) expect(readme, `docs/app.md lacks svc.${name}`).toContain(`svc.${name}`);
    for (const code of Object.keys(ERROR_CODES)) expect(readme, `docs/app.md lacks ${code}`).toContain(`\`${code}\``);
  });

  it("names in docs/app.md's promptTimeout row exactly the operations that wait on a person", () => {
    const doc = readFileSync(new URL('../../docs/app.md', import.meta.url), 'utf8');
    const row = doc.split('\n').find((line) => line.startsWith('| `promptTimeout`'));
    const named = [...(row ?? '').matchAll(/`([a-z]+\.[a-zA-Z]+)`/g)].map((m) => m[1]).sort();
    const prompts = Object.entries(methods as Record<string, OperationDef>)
      .filter(([, def]) => def.kind === 'prompt')
      .map(([name]) => name)
      .sort();
    expect(named).toEqual(prompts);
  });

  it.each(['PROTOCOL.md', 'docs/app.md'])(
    'writes the tables of %s: they are what npm run docs:tables generates from the registry',
    (file) => {
      const doc = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      expect(withTable(doc, file), `${file}: run npm run docs:tables`).toBe(doc);
    },
  );

  it('is the error table of docs/app.md: every code, and whether a retry can help', () => {
    const readme = readFileSync(new URL('../../docs/app.md', import.meta.url), 'utf8');
    const rows = new Map(
      readme
        .split('\n')
        .filter((line) => /^\| `ERR_[A-Z_]+` +\|/.test(line))
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .map(([, code, , retriable]) => [code!.slice(1, -1), retriable] as const),
    );
    for (const [code, retriable] of Object.entries(ERROR_CODES))
      expect(rows.get(code), `docs/app.md's error table: ${code}`).toBe(retriable ? 'yes' : 'no');
  });

  it('is documented for host implementers: PROTOCOL.md names every operation', () => {
    const protocol = readFileSync(new URL('../../PROTOCOL.md', import.meta.url), 'utf8');
    for (const name of names) expect(protocol, `PROTOCOL.md lacks ${name}`).toContain(`\`${name}\``);
    // The channel's own messages too: what the host sends, the app's announcement, the probe and close.
    for (const name of [...Object.keys(toApp), ...Object.keys(toHost), ...Object.values(PEER)])
      expect(protocol, `PROTOCOL.md lacks ${name}`).toContain(`\`${name}\``);
    // The app frame's attributes, as a host in another language copies them.
    expect(protocol).toContain(`\`sandbox="${APP_FRAME_SANDBOX}"\``);
    expect(protocol).toContain(`\`allow="${APP_FRAME_ALLOW}"\``);
  });
});
