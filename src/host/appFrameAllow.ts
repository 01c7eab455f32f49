/**
 * The features a web host delegates to the app's frame, as its iframe's `allow` attribute. The platform leaves the
 * camera, the microphone, geolocation and biometrics (WebAuthn) to the standard web APIs and the engine's own
 * prompts, and a page of its own in a WebView has them, with the clipboard, fullscreen, the screen wake lock,
 * autoplay and picture-in-picture. A frame of another site has none of them unless its parent delegates them: each
 * entry here names no origin, so it is delegated to the frame's own origin only. Left out: the Payment Request API
 * (the platform has no payments inside a mini app) and Web Share (`svc.ui.share` is the platform's; Chromium on
 * Linux does not know the feature, and says so in the console at each launch).
 *
 * `attachIframe` gives a frame this value when the frame has no `allow` attribute of its own.
 * @public
 */
export const APP_FRAME_ALLOW =
  'camera; microphone; geolocation; publickey-credentials-get; publickey-credentials-create; clipboard-write; fullscreen; screen-wake-lock; autoplay; picture-in-picture';
