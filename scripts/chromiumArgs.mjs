// Debian's Chromium, headless on this kind of machine (no sandbox, no GPU, no background traffic): the flags every
// browser test and benchmark launches it with (playwright.config.ts, test/browser/engines, scripts/bench).
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
