/**
 * What `svc dev`'s MCP server says of itself when a client connects (`serverInfo` and `instructions`): the same over
 * HTTP and over the stdio bridge, which answers `initialize` itself (before it reaches svc dev, or while none runs).
 * @internal
 */
export function serverIdentity(appName: string, version: string) {
  return {
    info: { name: 'svc-dev', title: `svc dev: ${appName}`, version },
    instructions:
      `The tools are the actions of the mini app "${appName}" running in svc dev. A person watches the ` +
      'messenger page and confirms the calls its rules require.',
  };
}
