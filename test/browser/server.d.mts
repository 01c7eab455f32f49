/** Starts `count` loopback static servers (see server.mjs). */
export declare function startServers(
  count: number,
  options?: { roots?: Record<string, string>; headers?: Record<string, string> },
): Promise<{ ports: number[]; close(): Promise<void> }>;
