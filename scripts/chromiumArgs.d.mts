/** Headless Chromium flags. */
export declare const CHROMIUM_ARGS: string[];
