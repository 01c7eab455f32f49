/**
 * The sandbox a web host gives the app's frame, as its iframe's `sandbox` attribute: what a page of its own may do
 * (scripts, its own origin, forms, pop-ups that open as ordinary pages, dialogs, downloads, the Storage Access API,
 * pointer and orientation lock), but not navigate the messenger's page. Without a sandbox a frame of another site
 * may send the top page anywhere on a click, a copy of the messenger's sign-in page for one; external content opens
 * through `svc.ui.openExternal`. `allow-same-origin` keeps the app's own origin, which the bridge needs (PROTOCOL.md:
 * an opaque origin would need `'*'`); with `allow-scripts` it lets a frame lift its own sandbox only when it is of
 * its parent's origin, which a mini app never is.
 *
 * `attachIframe` gives a frame this value when the frame has no `sandbox` attribute of its own.
 * @public
 */
export const APP_FRAME_SANDBOX =
  'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads allow-storage-access-by-user-activation allow-pointer-lock allow-orientation-lock';
