// The bridge in Chromium: a web host page on one origin embeds a mini app (IIFE or ESM build) on another, and
// hostile frames try to take the channel. Each case is declared here with `test(name, fn)` and registered with
// @playwright/test by bridge.spec.ts, which gives it its fixtures (`h`, from helpersFor, on a fresh context).
import { methods } from '../../dist/host.js';
import { assert, sleep, test, waitFor } from './declareCases.mjs';

// Every operation of the registry (the operation modules), from the build the pages load.
const METHODS = Object.keys(methods);

/**
 * Helpers each test receives. Origins: H the host (127.0.0.1:hp); A the app on another port of the same site
 * (127.0.0.1:ap); X the app on another site (localhost:ap, an out-of-process frame); E an attacker on a third site
 * (localhost:ep).
 */
export function helpersFor(context, browser, o, engine = 'chromium') {
  const h = { ...o, context, browser, engine };
  /** Opens the host page; returns { page, host (Frame), app() (the app Frame once its SDK is loaded) }. */
  h.open = async ({
    build = 'iife',
    appAt = o.X,
    attachTo = appAt,
    attach = 'now',
    delay = 0,
    sibling,
    top,
    referrerpolicy,
  } = {}) => {
    const page = await context.newPage();
    page.setDefaultTimeout?.(8_000);
    const appUrl = `${appAt}/fixtures/app-${build}.html`;
    const q = new URLSearchParams({ app: appUrl, appOrigin: attachTo, attach, delay: String(delay) });
    if (sibling) q.set('sibling', `${sibling}/fixtures/evil.html`);
    if (referrerpolicy) q.set('referrerpolicy', referrerpolicy);
    const hostUrl = `${o.H}/fixtures/host.html?${q}`;
    await page.goto(top ? `${top}/fixtures/evil.html?${new URLSearchParams({ embed: hostUrl })}` : hostUrl);
    const frameOf = (prefix) =>
      waitFor(async () => (await page.frames()).find((f) => f.url().startsWith(prefix)), `a frame at ${prefix}`);
    const host = top ? await frameOf(`${o.H}/fixtures/host.html`) : page.mainFrame();
    await host.waitForFunction(() => window.host);
    const app = async (url = appUrl) => {
      const frame = await frameOf(url);
      await frame.waitForFunction(() => window.sdk);
      return frame;
    };
    return { page, host, app, frameOf };
  };
  return h;
}

const noErrors = async (frame, who) =>
  assert.deepEqual(await frame.evaluate(() => window.__errors), [], `${who} saw errors`);

// ---------------------------------------------------------------- end to end: every namespace, both builds, both pairs
for (const build of ['iife', 'esm'])
  for (const pair of [
    'cross-origin same-site (127.0.0.1 ports)',
    'cross-site (127.0.0.1 -> localhost, out of process)',
  ])
    test(`e2e ${build}, ${pair}: every namespace, theme events, actions invoked from the host`, async (h) => {
      const crossSite = pair.startsWith('cross-site');
      const { host, app: appFrame } = await h.open({ build, appAt: crossSite ? h.X : h.A });
      const app = await appFrame();
      const out = await app.evaluate(async () => {
        const { svc } = window.sdk;
        const o = {};
        o.sync = {
          version: svc.version,
          id: svc.app.id,
          appVersion: svc.app.version,
          locale: svc.app.locale,
          theme: svc.app.theme,
          launchParams: svc.app.launchParams,
          supports: svc.supports('room.current'),
          supportsNot: svc.supports('camera.take'),
        };
        window.__themes = [];
        svc.app.onThemeChange((t) => window.__themes.push(t));
        svc.actions.handle('create_poll', async (input, ctx) => {
          svc.actions.progress('creating');
          const answer = await svc.actions.elicit({ prompt: 'Which colour?', schema: { type: 'object' } });
          return { created: input.question, by: ctx.invoked_by, agent: ctx.agent_id, confirmed: ctx.confirmed, answer };
        });
        o.identity = await svc.identity.get();
        o.token = await svc.auth.getToken();
        o.signIn = await svc.auth.signIn();
        o.signOut = await svc.auth.signOut();
        o.state = await svc.auth.state();
        o.room = await svc.room.current();
        o.sent = await svc.message.send({ room_id: '!room:svc', body: 'hi', card: { title: 'Poll', body: 'Vote' } });
        const picked = await svc.files.pick({ accept: ['text/csv'] });
        o.picked = { name: picked[0].name, isBlob: picked[0].blob instanceof Blob, text: await picked[0].blob.text() };
        o.saved = await svc.files.save({ name: 'n.txt', blob: new Blob(['hello'], { type: 'text/plain' }) });
        svc.ui.setTitle('Polls');
        svc.ui.toast({ message: 'saved', kind: 'success' });
        o.confirm = await svc.ui.confirm({ title: 'Sure?', body: 'Really' });
        o.open = await svc.ui.openExternal('https://example.com/');
        o.share = await svc.ui.share({ title: 't', url: 'https://example.com/' });
        await svc.storage.set('k', { n: [1, 2] });
        o.got = await svc.storage.get('k');
        await svc.storage.remove('k');
        o.gone = await svc.storage.get('k');
        await svc.storage.set('k2', 1);
        await svc.storage.clear();
        o.cleared = await svc.storage.get('k2');
        o.query = await svc.permissions.query('room.context');
        o.request = await svc.permissions.request('room.send');
        o.bad = await window.settle(svc.storage.get(''));
        svc.ui.close();
        return o;
      });
      assert.deepEqual(out.sync, {
        version: '1.0',
        id: 'polls',
        appVersion: '1.2.3',
        locale: 'de-DE',
        theme: 'light',
        launchParams: { title: 'Polls', from: 'e2e' },
        supports: true,
        supportsNot: false,
      });
      assert.equal(out.identity.display_name, 'Ada');
      assert.deepEqual(out.token, { access_token: 'tok-123', expires_in: 300 });
      assert.equal(out.state, 'signed-in');
      assert.equal(out.room.room_id, '!room:svc');
      assert.deepEqual(out.sent, { event_id: '$ev-hi' });
      assert.deepEqual(out.picked, { name: 'a.csv', isBlob: true, text: 'a,b' });
      assert.deepEqual(out.saved, { file_id: 'saved:n.txt:hello' });
      assert.equal(out.confirm, true);
      assert.deepEqual(out.got, { n: [1, 2] });
      assert.equal(out.gone, undefined);
      assert.equal(out.cleared, undefined);
      assert.equal(out.query, 'granted');
      assert.equal(out.request, 'granted');
      assert.equal(out.bad.code, 'ERR_INVALID_ARGUMENT');
      // Host to app: a theme event, then an action that reports progress and elicits.
      await host.evaluate(() => window.host.setTheme('dark'));
      await waitFor(() => app.evaluate(() => window.__themes.length === 1), 'the theme event');
      assert.deepEqual(await app.evaluate(() => [window.__themes, window.sdk.svc.app.theme]), [['dark'], 'dark']);
      const inv = await host.evaluate(() => window.invoke('create_poll', { question: 'Lunch?' }));
      assert.deepEqual(inv, {
        ok: true,
        value: {
          created: 'Lunch?',
          by: 'agent',
          agent: 'a-1',
          confirmed: true,
          answer: { answer: 'Which colour?', invocation: 'create_poll' },
        },
        ms: inv.ms,
      });
      const missing = await host.evaluate(() => window.invoke('nope', {}));
      assert.equal(missing.code, 'ERR_ACTION_NO_HANDLER');
      await waitFor(() => host.evaluate(() => window.calls.includes('ui.close')), 'the ui.close notification');
      const seen = await host.evaluate(() => [...new Set(window.calls)]);
      assert.deepEqual(
        METHODS.filter((m) => !seen.includes(m)),
        [],
        'every operation reached the host',
      );
      assert.deepEqual(await host.evaluate(() => window.progress), ['creating']);
      assert.equal(await host.evaluate(() => window.attaches), 1);
      if (crossSite && h.engine === 'chromium') {
        // Site isolation: the cross-site app frame is its own renderer target (an out-of-process iframe).
        const cdp = await h.browser.newBrowserCDPSession();
        const { targetInfos } = await cdp.send('Target.getTargets');
        await cdp.detach();
        assert.ok(
          targetInfos.some((t) => t.type === 'iframe' && t.url.startsWith(h.X)),
          'the app frame is out of process',
        );
      }
      await noErrors(app, 'app');
      await noErrors(host, 'host');
    });

// ---------------------------------------------------------------- hostile frames
// The host holds every window message 600 ms, so the attacker's welcome (with the app's real nonce, leaked to it
// by the test) lands first: only the source and origin checks stand between it and the app.
for (const role of ['sibling frame', 'top page'])
  for (const where of ['on another site', "on the host's own origin"])
    test(`hostile: a ${role} ${where} forges welcomes (with the real nonce), responses, requests and a hello`, async (h) => {
      const evilOrigin = where === 'on another site' ? h.E : h.H;
      const {
        host,
        app: appFrame,
        frameOf,
      } = await h.open({ delay: 600, ...(role === 'sibling frame' ? { sibling: evilOrigin } : { top: evilOrigin }) });
      const app = await appFrame();
      const evil =
        role === 'top page'
          ? (await waitFor(async () => (await h.context.pages())[0], 'page')).mainFrame()
          : await frameOf(`${evilOrigin}/fixtures/evil.html`);
      await evil.waitForFunction(() => window.forgeWelcomes);
      const ids = await app.evaluate(() => {
        window.track('id', window.sdk.svc.identity.get());
        return window.__ids.slice();
      });
      assert.ok(ids.length >= 1, 'the app drew a nonce');
      await evil.evaluate((ids) => {
        forgeWelcomes(appWindow(), ids);
        forgeFrames(
          appWindow(),
          ids.flatMap((p) => [`${p}0`, `${p}1`]),
        );
        forgeFrames(hostWindow(), []);
        hostWindow().postMessage({ svc: 'hello', wire: 1, nonce: 'evil' }, '*');
      }, ids);
      const first = await app.evaluate(() => window.tracked.id);
      assert.equal(first.ok, true, JSON.stringify(first));
      assert.equal(first.value.display_name, 'Ada', 'answered by the real host');
      assert.ok(first.ms >= 550, `the answer waited for the host's late welcome (${first.ms} ms)`);
      // On the port now: forged answers to the ids of a pending call (leaked too) must not settle it.
      const ids2 = await app.evaluate(() => {
        window.track('held', window.sdk.svc.ui.confirm({ title: 'hold:c', body: '' }));
        return window.__ids.slice();
      });
      // Nothing happens when a forged frame is dropped, so a last message from the same frame marks the end: window
      // messages from one source arrive in order, so once the app has seen it, it has seen every forged frame.
      await app.evaluate(() => {
        window.__sentinel = new Promise((seen) =>
          addEventListener('message', (e) => e.data?.svc === 'sentinel' && seen(true)),
        );
      });
      await evil.evaluate((ids) => {
        forgeFrames(
          appWindow(),
          ids.flatMap((p) => [0, 1, 2, 3].map((n) => p + n)),
        );
        appWindow().postMessage({ svc: 'sentinel' }, '*');
      }, ids2);
      assert.equal(await app.evaluate(() => window.__sentinel), true);
      assert.equal(
        await app.evaluate(() =>
          Promise.race([window.tracked.held.then(() => 'settled'), new Promise((r) => setTimeout(r, 50, 'pending'))]),
        ),
        'pending',
      );
      await waitFor(() => host.evaluate(() => window.release('hold:c')), 'the held call to reach the host');
      assert.deepEqual((await app.evaluate(() => window.tracked.held)).value, true);
      // Nothing reached the forged ports; the forged snapshot, theme and close were ignored; one channel only.
      assert.deepEqual(await evil.evaluate(() => window.__portGot), []);
      assert.deepEqual(
        await evil.evaluate(() => window.__got.filter((m) => m.ports || m.svc === 'welcome')),
        [],
        'the attacker got no welcome',
      );
      assert.deepEqual(
        await app.evaluate(() => [window.sdk.svc.version, window.sdk.svc.app.id, window.sdk.svc.app.theme]),
        ['1.0', 'polls', 'light'],
      );
      assert.equal(await host.evaluate(() => window.attaches), 1);
      const hellos = await host.evaluate(() => window.hellos);
      assert.ok(
        hellos.some((x) => x.nonce === 'evil' && !x.fromApp),
        'the forged hello reached the host and was not from the app',
      );
      assert.ok(
        hellos.some((x) => x.fromApp && ids.includes(x.nonce)),
        "the attacker had the app's real nonce",
      );
      assert.equal(
        (await app.evaluate(() => window.settle(window.sdk.svc.auth.state()))).value,
        'signed-in',
        'the channel still works',
      );
      await noErrors(app, 'app');
      await noErrors(host, 'host');
    });

test('hostile: a welcome from the right window (the parent) but the wrong origin is ignored', async (h) => {
  const { host, app: appFrame } = await h.open({ build: 'esm' });
  const app = await appFrame();
  // This client expects its host at localhost:hp; the parent really is 127.0.0.1:hp. The browser drops the hello
  // (its targetOrigin does not match); the parent then forges a welcome with the leaked nonce.
  const ids = await app.evaluate(
    (o) => {
      window.c2 = window.sdk.createSvc({ hostOrigin: o, connectTimeout: 1000 });
      window.track('wrong', window.c2.svc.identity.get());
      return window.__ids.slice();
    },
    h.H.replace('127.0.0.1', 'localhost'),
  );
  const leaked = await host.evaluate((ids) => {
    window.__forgedGot = [];
    for (const nonce of ids) {
      const ch = new MessageChannel();
      ch.port1.onmessage = (e) => window.__forgedGot.push(e.data);
      document.getElementById('app').contentWindow.postMessage({ svc: 'welcome', wire: 1, nonce }, '*', [ch.port2]);
    }
    return window.hellos.length;
  }, ids);
  assert.equal(leaked, 0, 'the browser dropped the hello sent to the wrong host origin');
  const r = await app.evaluate(() => window.tracked.wrong);
  // Chromium reports the parent's real origin (location.ancestorOrigins): the client refuses at once, before any
  // hello, since the origin it was told is not its parent's.
  assert.deepEqual([r.ok, r.code, r.retriable, r.isSvcError], [false, 'ERR_NO_HOST', false, true], JSON.stringify(r));
  assert.deepEqual(await host.evaluate(() => window.__forgedGot), []);
  await noErrors(app, 'app');
});

test('hostile: a hello from the right window (the iframe) but the wrong origin gets no port', async (h) => {
  // The host attached for 127.0.0.1:ap; the frame holds localhost:ap (same port, other site).
  const { host, app: appFrame } = await h.open({ build: 'esm', appAt: h.X, attachTo: h.A });
  const app = await appFrame();
  const r = await app.evaluate(() => window.settle(window.sdk.createSvc({ connectTimeout: 1000 }).svc.identity.get()));
  assert.deepEqual([r.ok, r.code, r.retriable], [false, 'ERR_HOST_UNREACHABLE', true]);
  const hellos = await host.evaluate(() => window.hellos);
  assert.ok(hellos.length >= 1 && hellos.every((x) => x.fromApp && x.origin === h.X), JSON.stringify(hellos));
  assert.equal(await host.evaluate(() => window.attaches), 0);
});

test('hostile: the app says hello then navigates to another origin before the welcome; the new page gets no port', async (h) => {
  const { page, host, app: appFrame, frameOf } = await h.open({ delay: 600 });
  const app = await appFrame();
  await app.evaluate((e) => {
    window.sdk.svc.identity.get().catch(() => {});
    setTimeout(() => (location.href = `${e}/fixtures/evil.html?hello=1`), 0);
  }, h.E);
  const evil = await frameOf(`${h.E}/fixtures/evil.html`);
  await evil.waitForFunction(() => window.__got);
  await waitFor(() => host.evaluate(() => window.attaches === 1), "the host's late welcome");
  // The browser drops the welcome silently; a message the host posts to the frame after it arrives after it, so once
  // the page has it, the welcome would have come before.
  await host.evaluate(() => document.getElementById('app').contentWindow.postMessage({ svc: 'sentinel' }, '*'));
  await evil.waitForFunction(() => window.__got.some((m) => m.svc === 'sentinel'));
  assert.deepEqual(
    await evil.evaluate(() => window.__got.filter((m) => m.svc !== 'sentinel')),
    [],
    'the page the app navigated to received nothing',
  );
  const hellos = await host.evaluate(() => window.hellos);
  assert.deepEqual(
    hellos.map((x) => [x.origin, x.fromApp]),
    [
      [h.X, true],
      [h.E, true],
    ],
  );
  // The host did answer the app's hello (it could not know); the browser dropped the welcome and its port because
  // the frame no longer held the app's origin. The evil page's own hello was refused.
  assert.equal(await host.evaluate(() => window.attaches), 1);
  await noErrors(host, 'host');
  void page;
});

test('hostile: a connected app navigated to another origin by the host; the new page gets nothing, host calls fail fast', async (h) => {
  const { host, app: appFrame, frameOf } = await h.open();
  const app = await appFrame();
  assert.equal((await app.evaluate(() => window.settle(window.sdk.svc.auth.state()))).value, 'signed-in');
  await app.evaluate(() => window.sdk.svc.actions.handle('slow', () => new Promise(() => {})));
  await host.evaluate(() => window.trackInvoke('inv', 'slow', {}));
  await host.evaluate((e) => (document.getElementById('app').src = `${e}/fixtures/evil.html?hello=1`), h.E);
  const evil = await frameOf(`${h.E}/fixtures/evil.html`);
  await evil.waitForFunction(() => window.__got);
  const inv = await host.evaluate(() => window.tracked.inv);
  assert.deepEqual([inv.ok, inv.code, inv.retriable], [false, 'ERR_DISCONNECTED', true], JSON.stringify(inv));
  // Upper bounds are generous (a slow machine must not fail them): they only tell 'at once' from 'at the timeout'.
  assert.ok(inv.ms < 60_000, `the pending invocation failed at once (${inv.ms} ms), not at its ten-minute timeout`);
  // The host answers a hello it refuses with nothing, so once it has seen the new page's hello nothing more comes.
  await waitFor(
    () => host.evaluate((e) => window.hellos.some((x) => x.origin === e), h.E),
    "the host to see the new page's hello",
  );
  assert.deepEqual(await evil.evaluate(() => window.__got), []);
  assert.equal(await host.evaluate(() => window.attaches), 1);
  const after = await host.evaluate(() => window.invoke('slow', {}));
  assert.deepEqual([after.ok, after.code], [false, 'ERR_DISCONNECTED']);
  await noErrors(host, 'host');
});

test('reload: the new page says hello and replaces the port; pending calls on the host fail ERR_DISCONNECTED', async (h) => {
  const { host, app: appFrame } = await h.open();
  let app = await appFrame();
  await app.evaluate(() => {
    window.sdk.svc.actions.handle('slow', () => new Promise(() => {}));
    window.sdk.svc.ui.confirm({ title: 'hold:r', body: '' }).catch(() => {});
  });
  await waitFor(() => host.evaluate(() => window.calls.includes('ui.confirm')), 'the held call');
  await host.evaluate(() => window.trackInvoke('inv', 'slow', {}));
  await app.evaluate(() => location.reload());
  const inv = await host.evaluate(() => window.tracked.inv);
  assert.deepEqual([inv.ok, inv.code, inv.retriable], [false, 'ERR_DISCONNECTED', true], JSON.stringify(inv));
  assert.ok(inv.ms < 60_000, `failed at once (${inv.ms} ms), not at its ten-minute timeout`);
  await waitFor(
    async () =>
      (await appFrame()).evaluate(
        () => performance.getEntriesByType('navigation')[0]?.type === 'reload' && window.sdk !== undefined,
      ),
    'the reloaded page',
  );
  app = await appFrame();
  const r = await app.evaluate(() => window.settle(window.sdk.svc.identity.get()));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await host.evaluate(() => window.attaches), 2);
  // The old page's call is answered late, into the closed channel: dropped without a sound.
  assert.equal(await host.evaluate(() => window.release('hold:r')), true);
  const inv2 = await host.evaluate(() => window.invoke('nope', {}));
  assert.equal(inv2.code, 'ERR_ACTION_NO_HANDLER', 'the host talks to the new page');
  // Proves that nothing happens: the late answer is dropped without any event to wait for.
  await sleep(100);
  await noErrors(host, 'host');
  await noErrors(app, 'app');
});

test("a second hello from the same frame replaces the port; the old channel's pending calls fail ERR_DISCONNECTED", async (h) => {
  // Like a reload whose pagehide never ran: only the hello tells the host.
  const { host, app: appFrame } = await h.open({ build: 'esm' });
  const app = await appFrame();
  await app.evaluate(() => window.track('old', window.sdk.svc.ui.confirm({ title: 'hold:o', body: '' })));
  await waitFor(() => host.evaluate(() => window.calls.includes('ui.confirm')), 'the held call');
  const fresh = await app.evaluate(() => window.settle(window.sdk.createSvc().svc.auth.state()));
  assert.equal(fresh.value, 'signed-in');
  const old = await app.evaluate(() => window.tracked.old);
  assert.deepEqual([old.ok, old.code, old.retriable], [false, 'ERR_DISCONNECTED', true], JSON.stringify(old));
  assert.equal(await host.evaluate(() => window.attaches), 2);
  await noErrors(app, 'app');
});

test("attachIframe gives the app's frame APP_FRAME_ALLOW and APP_FRAME_SANDBOX, unless it has its own", async (h) => {
  const { host } = await h.open({ build: 'esm' });
  const out = await host.evaluate(() => {
    const { APP_FRAME_ALLOW, APP_FRAME_SANDBOX, attachIframe, createHost } = window.hostLib;
    const own = Object.assign(document.createElement('iframe'), { allow: 'camera' });
    own.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    attachIframe(createHost({ handlers: {} }), own, 'https://app.example')();
    const launched = document.getElementById('app');
    return {
      APP_FRAME_ALLOW,
      APP_FRAME_SANDBOX,
      launched: [launched.getAttribute('allow'), launched.getAttribute('sandbox')],
      own: [own.allow, own.getAttribute('sandbox')],
    };
  });
  assert.deepEqual(out.launched, [out.APP_FRAME_ALLOW, out.APP_FRAME_SANDBOX]);
  assert.deepEqual(out.own, ['camera', 'allow-scripts allow-same-origin']);
  if (h.engine === 'chromium') {
    // Chromium says what the frame's document may use; the other engines have no such API.
    const app = await (await h.open({ build: 'esm' })).app();
    const allowed = await app.evaluate(() =>
      ['camera', 'microphone', 'geolocation', 'clipboard-write', 'fullscreen', 'payment'].map((f) =>
        document.featurePolicy.allowsFeature(f),
      ),
    );
    assert.deepEqual(allowed, [true, true, true, true, true, false]);
  }
});

test('two clients in one page: the one whose call came last holds the channel, and the host invokes its handlers', async (h) => {
  // docs/app.md, "Options and several clients": a page has one channel to its host, so use one client.
  const { host, app: appFrame } = await h.open({ build: 'esm' });
  const app = await appFrame();
  await app.evaluate(async () => {
    window.sdk.svc.actions.handle('ping', () => 'pong');
    await window.sdk.svc.auth.state();
  });
  assert.equal((await host.evaluate(() => window.invoke('ping', {}))).value, 'pong');
  await app.evaluate(async () => {
    window.second = window.sdk.createSvc({ timeout: 5_000 }).svc;
    await window.second.auth.state();
  });
  const taken = await host.evaluate(() => window.invoke('ping', {}));
  assert.equal(taken.code, 'ERR_ACTION_NO_HANDLER', JSON.stringify(taken));
  await app.evaluate(() => window.sdk.svc.auth.state());
  assert.equal((await host.evaluate(() => window.invoke('ping', {}))).value, 'pong');
  assert.equal(await host.evaluate(() => window.attaches), 3);
  await noErrors(app, 'app');
});

// ---------------------------------------------------------------- hash routers: the fragment is the app's after start
// What the launch gave (the host page's createHost({ app }) and its handlers), as `launchSeen()` in the app's page
// (fixtures/hooks.js) reads it from the synchronous members.
const LAUNCHED = { id: 'polls', locale: 'de-DE', launchParams: { title: 'Polls', from: 'e2e' }, supports: true };

for (const build of ['iife', 'esm'])
  test(`a hash router that replaces the fragment before the app first uses svc (${build}): the launch is read as the page loaded`, async (h) => {
    // Vue Router's hash history rewrites `#svc=…` to `#/svc=…` when the router is made, before any component runs.
    const { app: appFrame } = await h.open({ build });
    const app = await appFrame();
    const out = await app.evaluate(async () => {
      history.replaceState(null, '', '#/svc=%7B%7D');
      const sync = window.launchSeen();
      return { sync, call: await window.settle(window.sdk.svc.auth.state()) };
    });
    assert.deepEqual(out.sync, LAUNCHED);
    assert.deepEqual([out.call.ok, out.call.value], [true, 'signed-in'], JSON.stringify(out.call));
    await noErrors(app, 'app');
  });

for (const [how, leave] of [
  ['a reload', () => location.reload()],
  ['a link to another page of the app, without the fragment', () => (location.href = location.pathname)],
])
  for (const [pair, appAt] of [
    ['same-site', 'A'],
    ['cross-site', 'X'],
  ])
    test(`${how} after a hash router changed the fragment (${pair}): the new page finds its host`, async (h) => {
      const { host, app: appFrame } = await h.open({ build: 'esm', appAt: h[appAt] });
      let app = await appFrame();
      assert.deepEqual(await app.evaluate(() => window.launchSeen()), LAUNCHED);
      assert.equal((await app.evaluate(() => window.settle(window.sdk.svc.auth.state()))).value, 'signed-in');
      await app.evaluate(() => {
        history.pushState(null, '', '#/settings');
        window.__left = true;
      });
      await app.evaluate(leave);
      await waitFor(async () => (await appFrame()).evaluate(() => window.__left === undefined), 'the new page');
      app = await appFrame();
      const out = await app.evaluate(async () => {
        const before = window.launchSeen();
        const call = await window.settle(window.sdk.svc.auth.state());
        return { before, call, after: window.launchSeen(), language: navigator.language };
      });
      assert.deepEqual([out.call.ok, out.call.value], [true, 'signed-in'], JSON.stringify(out.call));
      assert.equal(await host.evaluate(() => window.attaches), 2, 'the host welcomed the new page');
      // The page has no launch of its own: the synchronous members are the defaults until the welcome brings it.
      assert.deepEqual(out.before, { id: '', locale: out.language, launchParams: {}, supports: false });
      assert.deepEqual(out.after, LAUNCHED);
      await noErrors(app, 'app');
    });

test('a host that never answers: ERR_HOST_UNREACHABLE (retriable) at the 3 s connect timeout; a retry then connects', async (h) => {
  const { host, app: appFrame } = await h.open({ attach: 'manual' });
  const app = await appFrame();
  const r = await app.evaluate(() => window.settle(window.sdk.svc.identity.get()));
  assert.deepEqual(
    [r.ok, r.code, r.retriable, r.isSvcError],
    [false, 'ERR_HOST_UNREACHABLE', true, true],
    JSON.stringify(r),
  );
  assert.ok(r.ms >= 2950 && r.ms < 15_000, `at the documented 3000 ms, not before (${Math.round(r.ms)} ms)`);
  assert.match(r.message, /no answer from http:\/\/127\.0\.0\.1:\d+ within 3000 ms; retry/);
  await host.evaluate(() => window.attachNow());
  const again = await app.evaluate(() => window.settle(window.sdk.svc.identity.get()));
  assert.equal(again.ok, true, JSON.stringify(again));
  await noErrors(app, 'app');
});

test('the host closes mid-call: the pending call fails ERR_DISCONNECTED at once; the next call reconnects', async (h) => {
  const { host, app: appFrame } = await h.open();
  const app = await appFrame();
  await app.evaluate(() => window.track('held', window.sdk.svc.storage.get('hold:k')));
  await waitFor(() => host.evaluate(() => window.calls.includes('storage.get')), 'the held call');
  await host.evaluate(() => window.host.close());
  const r = await app.evaluate(() => window.tracked.held);
  assert.deepEqual([r.ok, r.code, r.retriable], [false, 'ERR_DISCONNECTED', true], JSON.stringify(r));
  const again = await app.evaluate(() => window.settle(window.sdk.svc.auth.state()));
  assert.equal(again.value, 'signed-in', JSON.stringify(again));
  assert.equal(await host.evaluate(() => window.attaches), 2);
  await noErrors(app, 'app');
});

test('a host that hangs mid-call: ERR_TIMEOUT (retriable) at the configured call timeout', async (h) => {
  const { app: appFrame } = await h.open({ build: 'esm' });
  const app = await appFrame();
  const r = await app.evaluate(() => window.settle(window.sdk.createSvc({ timeout: 800 }).svc.storage.get('hold:z')));
  assert.deepEqual([r.ok, r.code, r.retriable], [false, 'ERR_TIMEOUT', true], JSON.stringify(r));
  assert.ok(r.ms >= 780 && r.ms < 15_000, `at the 800 ms call timeout, not before (${r.ms} ms)`);
  await noErrors(app, 'app');
});

test("the app frame removed mid-invocation: the host's pending invokeAction fails ERR_DISCONNECTED at once", async (h) => {
  const { host, app: appFrame } = await h.open();
  const app = await appFrame();
  await app.evaluate(() =>
    window.sdk.svc.actions.handle('slow', () => {
      window.slowRunning = true;
      return new Promise(() => {});
    }),
  );
  await host.evaluate(() => window.trackInvoke('inv', 'slow', {}));
  await waitFor(() => app.evaluate(() => window.slowRunning === true), 'the invocation to reach the app');
  await host.evaluate(() => document.getElementById('app').remove());
  const inv = await host.evaluate(() => window.tracked.inv);
  assert.deepEqual([inv.ok, inv.code, inv.retriable], [false, 'ERR_DISCONNECTED', true], JSON.stringify(inv));
  assert.ok(inv.ms < 60_000, `failed at once (${inv.ms} ms), not at its ten-minute timeout`);
  await noErrors(host, 'host');
});

// ---------------------------------------------------------------- who the app trusts, in every engine
for (const referrerpolicy of ['no-referrer', 'same-origin'])
  test(`a host that frames the app with referrerpolicy="${referrerpolicy}" is still reached`, async (h) => {
    // Firefox then reports location.ancestorOrigins[0] as 'null': an opaque ancestor names nothing, and the app's
    // own list of host origins still decides.
    const { app: appFrame } = await h.open({ build: 'esm', referrerpolicy });
    const app = await appFrame();
    const r = await app.evaluate(() => window.settle(window.sdk.svc.auth.state()));
    assert.deepEqual([r.ok, r.value], [true, 'signed-in'], JSON.stringify(r));
    await noErrors(app, 'app');
  });

test('hostile: a page the app does not list frames it, naming itself as host or naming none; no hello reaches it', async (h) => {
  // The app lists only the real host (H). The attacker (E) frames it with a fragment naming E as host_origin,
  // and welcomes any hello. Without the app's allow-list every engine would connect: the parent really is E. With no
  // launch in the URL the app says hello to its parent's origin as the browser reports it, under the same list.
  const snapshot = { bridge: '1.0', methods: ['auth.state'], app: { id: 'polls' }, host_origin: h.E };
  for (const fragment of [`#svc=${encodeURIComponent(JSON.stringify(snapshot))}`, ''])
    for (const build of ['iife', 'esm']) {
      const appUrl = `${h.X}/fixtures/app-${build}.html?trust=${encodeURIComponent(h.H)}${fragment}`;
      const page = await h.context.newPage();
      await page.goto(`${h.E}/fixtures/evil.html?${new URLSearchParams({ frameApp: appUrl })}`);
      const app = await waitFor(
        async () => (await page.frames()).find((f) => f.url().startsWith(`${h.X}/fixtures/app-${build}.html`)),
        'the framed app',
      );
      await app.waitForFunction(() => window.sdk);
      const r = await app.evaluate(() => window.settle(window.sdk.svc.auth.state()));
      assert.deepEqual([r.ok, r.code, r.retriable], [false, 'ERR_NO_HOST', false], JSON.stringify(r));
      assert.deepEqual(await page.mainFrame().evaluate(() => window.__hellos), [], 'the impostor got no hello');
      await noErrors(app, 'app');
    }
});

test('a cross-origin child frame named __svc_port inside the app is ignored: calls reach the host, no error', async (h) => {
  for (const build of ['iife', 'esm']) {
    const { app: appFrame } = await h.open({ build });
    const app = await appFrame();
    await app.evaluate(
      (url) =>
        new Promise((loaded) => {
          const frame = document.createElement('iframe');
          frame.name = '__svc_port';
          frame.onload = loaded;
          frame.src = url;
          document.body.append(frame);
        }),
      `${h.E}/fixtures/evil.html`,
    );
    // A client made now looks the name up on its first call and finds the frame's window.
    const r = await app.evaluate(() =>
      window.settle(window.sdk.createSvc ? window.sdk.createSvc().svc.auth.state() : window.sdk.svc.auth.state()),
    );
    assert.deepEqual([r.ok, r.value], [true, 'signed-in'], JSON.stringify(r));
    await noErrors(app, 'app');
  }
});
