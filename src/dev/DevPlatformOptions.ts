import type { DevEvent } from './DevEvent';
import type { DevState } from './devContract';

/** Options of `startDevPlatform`. @public */
export interface DevPlatformOptions {
  /** The mini app's folder: its `manifest.json` is validated and its files are served on their own origin. */
  dir?: string;
  /**
   * A signed package (`.swbn`) to run instead of `dir`: verified first (a tampered one does not start), served from
   * its own files only. It is the store's first upload when the store has none.
   */
  package?: string;
  /** Without `dir`: the mini app id. */
  miniAppId?: string;
  /** Without `dir`: the audience exchanged tokens carry (`auth.audience` of an `svc-exchange` manifest). */
  audience?: string;
  /** Without `dir`: the version. */
  version?: string;
  /** Port of the messenger and the platform on 127.0.0.1; default a free one. */
  port?: number;
  /**
   * Port of the package server (another origin); default the one the `statePath` file kept from the last start (a
   * free one when that is taken, said in a notice), else a free one.
   */
  packagePort?: number;
  /** The backend's webhook URL (`--webhooks`). */
  webhooks?: string;
  /** Loopback backends the app may reach besides the manifest's `network` (`--allow`). */
  allow?: string[];
  /** Load the app from the developer's own dev server instead of serving `dir` (`--app-url`, e.g. Vite). */
  appUrl?: string;
  /** State file path (`--state`); saved atomically after every change. */
  statePath?: string;
  /** Backoff multiplier for webhook retries (`--retry-scale`); 0.01 makes a minute's retries take a second. */
  retryScale?: number;
  /**
   * The clock of the server API's rate limit, in milliseconds (default `Date.now`): a test advances it to refill the
   * bucket instead of waiting for it.
   */
  now?: () => number;
  /** The identity provider's realm; default `svc-dev`. */
  realm?: string;
  /** Told after every change of the state. */
  onChange?: (state: DevState) => void;
  /** Told of each event: launches, webhook attempts, server API calls, blocked requests (the CLI prints them). */
  onEvent?: (event: DevEvent) => void;
  /** Serve the app's actions as MCP tools at `/mcp` (default true; `--no-mcp` turns it off). */
  mcp?: boolean;
  /** The agent id of every MCP call (`--agent-id`); default the MCP client's name. */
  agentId?: string;
  /** Who answers the app's `elicit` during an MCP call (`--elicit`): the person's sheet (default) or the agent. */
  elicit?: 'sheet' | 'agent';
  /** Exact origins a browser-based MCP client may call `/mcp` from (`--mcp-origin`); none by default. */
  mcpOrigins?: string[];
  /** How long (ms) an MCP call waits for the person to answer a sheet before the agent is told to retry; 50 s. */
  mcpPersonTimeout?: number;
  /**
   * How long (ms) an MCP call waits for a messenger page after the last one closed or svc dev reloaded it for an
   * edited manifest, before it fails with `ERR_HOST_UNREACHABLE`: a reload is back within a second or two; 10 s.
   */
  mcpPageWait?: number;
  /** Files in `dir` the package server must never serve (the backend's env file); the state file never is. */
  neverServe?: string[];
  /**
   * The forms of the app's developer key (its bytes, its base64, its private part in hex) for the app's id: no file
   * of `dir` holding one is served, as `svc pack` packs none. Asked once, when the first file is served. The CLI gives
   * those of the key `svc keygen` wrote for the id, if it finds it; a private key in PEM, DER or a JWK is refused
   * without it.
   */
  keyForms?: (miniAppId: string) => Promise<readonly (string | Uint8Array)[]>;
  /**
   * Told what the developer should know, for the terminal: the signing secret changed (a rotation, or a new one),
   * a change could not be saved, pending deliveries were resumed, manifest.json was edited (or does not validate).
   * A returned promise is awaited (a rotation is answered once it resolves, so the backend's env file can be
   * rewritten first).
   */
  onNotice?: (notice: DevNotice) => void | Promise<void>;
  /**
   * Told that the store accepted a version (`svc publish`, the messenger's settings), which is served from now on,
   * before the upload is answered. A sentence it returns is the answer's `warning`, which `svc publish` prints: what
   * the publisher should know, such as a backend's env file that could not be rewritten with the new version.
   */
  onVersionServed?: (version: string) => string | undefined | Promise<string | undefined>;
}

/** Something the developer should know about the running platform. @public */
export interface DevNotice {
  kind:
    | 'secret-changed'
    | 'save-failed'
    | 'deliveries-resumed'
    | 'package-port-moved'
    | 'manifest-edited'
    | 'manifest-invalid'
    /** The package svc dev started with is not the latest build the store accepted (an older one, or another). */
    | 'package-not-accepted'
    /** Another svc dev serves the same app folder: `svc mcp` forwards to this one while it runs. */
    | 'folder-served-twice'
    /** The file that leads `svc publish` to this platform's store could not be written. */
    | 'store-unfindable'
    /** Grants of scopes the manifest served no longer declares were revoked (scope.revoked sent for each). */
    | 'grants-revoked';
  /** A sentence for the terminal (never containing a secret). */
  message: string;
}
