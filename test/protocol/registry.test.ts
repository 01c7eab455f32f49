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
import { CALL_TABLE } from '../../src/protocol/callTable';
import { calls, type CallDef } from '../../src/protocol/calls';
import { results as resultChecks } from '../../src/protocol/results';

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
      expect(results[name as keyof typeof results] === null, name).toBe(methods[name as keyof typeof methods].notify);
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

  it('names only short scopes the platform lists, each mapped to a manifest scope or to none', () => {
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
    const prompts = names.filter((n) => methods[n as keyof typeof methods].prompt).sort();
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

  it("builds each full entry from the client's part: same operations, args, prompt and fire-and-forget flag", () => {
    expect(Object.keys(calls)).toEqual(names);
    for (const name of names) {
      const part: { args: unknown; prompt: boolean; notify: boolean; params?: unknown } =
        calls[name as keyof typeof calls];
      const full = methods[name as keyof typeof methods];
      expect([full.args, full.prompt, full.notify], name).toEqual([part.args, part.prompt, part.notify]);
      // The client checks exactly what nobody answers, with the very check the host uses.
      expect('params' in part, name).toBe(part.notify);
      if (part.notify) expect(full.params, name).toBe(part.params);
    }
  });

  it("is what the client's table says, operation by operation (a drift prints the table to paste)", () => {
    const encoded = Object.entries(calls as Record<string, CallDef>)
      .map(([name, def]) => {
        const args = def.args == 'object' ? '@' : def.args.join(',');
        const flags = `${def.prompt ? 'p' : ''}${def.notify ? 'n' : ''}${def.none ? 'v' : ''}`;
        return flags ? `${name}:${args}:${flags}` : args ? `${name}:${args}` : name;
      })
      .join(' ');
    expect(CALL_TABLE, 'src/protocol/callTable.ts: CALL_TABLE must be the line below').toBe(encoded);
    // An operation resolves to nothing exactly when the host's answer must be empty.
    for (const [name, def] of Object.entries(calls as Record<string, CallDef>)) {
      const check = resultChecks[name as keyof typeof resultChecks];
      if (!def.notify) expect(!!def.none, name).toBe(!!check?.(1, 'result')?.endsWith('must be empty'));
    }
  });

  it('is documented: the README has a row for every operation and every error code', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const name of names) expect(readme, `README lacks svc.${name}`).toContain(`svc.${name}`);
    for (const code of Object.keys(ERROR_CODES)) expect(readme, `README lacks ${code}`).toContain(`\`${code}\``);
  });

  it('is documented for host implementers: PROTOCOL.md names every operation', () => {
    const protocol = readFileSync(new URL('../../PROTOCOL.md', import.meta.url), 'utf8');
    for (const name of names) expect(protocol, `PROTOCOL.md lacks ${name}`).toContain(`\`${name}\``);
    // The channel's own messages too: what the host sends, the app's announcement, the probe and close.
    for (const name of [...Object.keys(toApp), ...Object.keys(toHost), ...Object.values(PEER)])
      expect(protocol, `PROTOCOL.md lacks ${name}`).toContain(`\`${name}\``);
  });
});
