import { By, Key } from 'selenium-webdriver';

// A WebDriver session (selenium-webdriver) seen through the few Playwright-shaped calls the browser cases make:
// page.goto / frames / mainFrame, frame.url / evaluate / waitForFunction. WebDriver has no frame handles, so a frame
// is the path of indices from the top document, and each call switches to it first.

/** Values WebDriver cannot return as they are (undefined, inside objects too) travel as a marker. */
const UNDEFINED = '__svc_test_undefined__';
const revive = (value) => {
  if (value === UNDEFINED) return undefined;
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
  return value;
};

// Runs in the page: calls the case's function with its argument, settles it, and encodes what JSON would lose.
const runner = (source) => `
  const done = arguments[arguments.length - 1];
  const encode = (v) => JSON.parse(JSON.stringify({ v }, (k, x) => (x === undefined ? '${UNDEFINED}' : x))).v ?? null;
  Promise.resolve()
    .then(() => (${source})(arguments[0]))
    .then((v) => done({ ok: true, v: v === undefined ? '${UNDEFINED}' : encode(v) }), (e) => done({ ok: false, e: String((e && e.stack) || e) }));`;

/**
 * A page over one WebDriver session: its one window, navigated per case.
 * @param {import('selenium-webdriver').WebDriver} driver
 */
export function webdriverPage(driver) {
  // WebDriver serves one command at a time: calls from concurrent evaluates run one after another.
  let queue = Promise.resolve();
  const serial = (work) => {
    const run = queue.then(work);
    queue = run.catch(() => {});
    return run;
  };
  // A frame is entered through its element (WebKitWebDriver's numeric frame indices do not follow window.frames).
  const enter = async (path) => {
    await driver.switchTo().defaultContent();
    for (const index of path) await driver.switchTo().frame((await driver.findElements(By.css('iframe')))[index]);
  };
  const frameAt = (path, url) => ({
    url: () => url,
    evaluate: (fn, arg) =>
      serial(async () => {
        await enter(path);
        const r = await driver.executeAsyncScript(runner(String(fn)), arg ?? null);
        if (!r.ok) throw new Error(`in ${url}: ${r.e}`);
        return revive(r.v);
      }),
    // A real click, as a person's: on the element's centre, so the frame holding it takes the focus.
    click: (selector) =>
      serial(async () => {
        await enter(path);
        await (await driver.findElement(By.css(selector))).click();
      }),
    async waitForFunction(fn, arg, { timeout = 8_000 } = {}) {
      const end = Date.now() + timeout;
      let last;
      for (;;) {
        try {
          // Truthiness is judged in the page, as Playwright does: a function or a node would not survive the trip.
          if (await this.evaluate(`(a) => Promise.resolve((${fn})(a)).then(Boolean)`, arg)) return;
          last = 'falsy';
        } catch (e) {
          last = e.message;
        }
        if (Date.now() > end)
          throw new Error(`timed out waiting in ${url} for ${String(fn).slice(0, 80)} (last: ${last?.slice(0, 300)})`);
        await new Promise((ok) => setTimeout(ok, 50));
      }
    },
  });
  // Every frame, depth first, with the URL its document has now.
  const walk = async (path) => {
    const url = await driver.executeScript('return location.href');
    const count = (await driver.findElements(By.css('iframe'))).length;
    const found = [frameAt(path, url)];
    for (let i = 0; i < count; i++) {
      try {
        await driver.switchTo().frame((await driver.findElements(By.css('iframe')))[i]);
        found.push(...(await walk([...path, i])));
      } catch {
        // A frame that went away meanwhile.
      }
      await enter(path);
    }
    return found;
  };
  return {
    goto: (url) => serial(() => driver.get(url)),
    frames: () =>
      serial(async () => {
        await driver.switchTo().defaultContent();
        return walk([]);
      }),
    mainFrame: () => frameAt([], 'top'),
    // A key pressed as a person does, to whatever has the focus (Playwright's and Puppeteer's key names).
    keyboard: {
      press: (key) =>
        serial(async () => {
          await driver.switchTo().defaultContent();
          await driver
            .actions()
            .sendKeys(Key[key.toUpperCase()] ?? key)
            .perform();
        }),
    },
    setDefaultTimeout() {},
    close: async () => {},
  };
}
