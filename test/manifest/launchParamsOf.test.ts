// Deep links launch the app only at routes its manifest declares, with their parameters.
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/manifest';
import { launchParamsOf } from '../../src/manifest/launchParamsOf';
import { validManifest } from './fixtures';

const routes = [{ path: '/' }, { path: '/poll' }, { path: '/poll/:id/results' }];

describe('launchParamsOf', () => {
  it('matches a declared route, with its query and path parameters', () => {
    expect(launchParamsOf(routes, '/poll?id=7')).toEqual({ route: '/poll', id: '7' });
    expect(launchParamsOf(routes, '/poll/p%201/results')).toEqual({ route: '/poll/:id/results', id: 'p 1' });
    expect(launchParamsOf(routes, '/')).toEqual({ route: '/' });
  });

  it('refuses a link to a route the manifest does not declare', () => {
    expect(launchParamsOf(routes, '/admin')).toBeUndefined();
    expect(launchParamsOf(routes, '/poll/7')).toBeUndefined();
  });

  it('never lets the query or a segment override the route', () => {
    expect(launchParamsOf(routes, '/poll?route=/admin')).toEqual({ route: '/poll' });
    expect(launchParamsOf([{ path: '/x/:route' }], '/x/admin')).toEqual({ route: '/x/:route' });
  });

  it('takes the first declared route that matches, a segment over a query parameter, the last of a repeated name', () => {
    const two = [{ path: '/p/:id' }, { path: '/p/new' }];
    expect(launchParamsOf(two, '/p/new')).toEqual({ route: '/p/:id', id: 'new' });
    expect(launchParamsOf(two, '/p/7?id=9&tab=a+b&tab=c%20d')).toEqual({ route: '/p/:id', id: '7', tab: 'c d' });
    expect(launchParamsOf(two, '/p/7?tab=a+b')).toEqual({ route: '/p/:id', id: '7', tab: 'a b' });
  });

  it('matches nothing the platform refuses to send: no single leading "/", a raw space or control character', () => {
    for (const link of [
      'poll',
      '?id=7',
      '',
      '//poll',
      'https://x.example/poll',
      '/poll?id= 7',
      '/poll?id=7\n',
      '/poll/\u2028/results',
    ])
      expect([link, launchParamsOf(routes, link)]).toEqual([link, undefined]);
    expect(launchParamsOf(routes, '/?id=7')).toEqual({ route: '/', id: '7' });
  });

  it('matches nothing with a fragment, which would end up inside a parameter or the last query value', () => {
    expect(launchParamsOf(routes, '/poll/7#votes/results')).toBeUndefined();
    expect(launchParamsOf(routes, '/poll?id=7#votes')).toBeUndefined();
    expect(launchParamsOf(routes, '/poll/7%23votes/results')).toEqual({ route: '/poll/:id/results', id: '7#votes' });
  });
});

describe('launchParamsOf on encoded and composed text', () => {
  const cafe = [{ path: '/café' }, { path: '/p/:id' }];

  it('compares each segment percent-decoded and in NFC on both sides', () => {
    expect(launchParamsOf(cafe, '/caf%C3%A9')).toEqual({ route: '/café' });
    expect(launchParamsOf(cafe, '/cafe\u0301')).toEqual({ route: '/café' });
    expect(launchParamsOf([{ path: '/caf%C3%A9' }], '/café')).toEqual({ route: '/caf%C3%A9' });
    // An encoded slash stays inside its segment: it never makes two of one.
    expect(launchParamsOf(cafe, '/p/a%2Fb')).toEqual({ route: '/p/:id', id: 'a/b' });
  });

  it('matches nothing, and never throws, on malformed percent-encoding', () => {
    expect(launchParamsOf(cafe, '/p/%E0')).toBeUndefined();
    expect(launchParamsOf(cafe, '/caf%C3')).toBeUndefined();
    // In the query too: it would reach the app as U+FFFD.
    expect(launchParamsOf(cafe, '/p/1?x=%ZZ')).toBeUndefined();
    expect(launchParamsOf(cafe, '/p/1?x=%C3')).toBeUndefined();
    expect(launchParamsOf(cafe, '/p/1?%ZZ=1')).toBeUndefined();
    expect(launchParamsOf(cafe, '/p/1?x=caf%C3%A9&y=a+b')).toEqual({ route: '/p/:id', id: '1', x: 'café', y: 'a b' });
  });
});

describe('routes whose parameters could not all reach the app', () => {
  it('are refused by the manifest check: a parameter with no name, named route, or one name twice', () => {
    const manifest = validManifest();
    const before = manifest.routes.length;
    manifest.routes = [
      ...manifest.routes,
      { path: '/x/:route', title: 'X' },
      { path: '/p/:id/:id', title: 'P' },
      { path: '/q/:', title: 'Q' },
    ];
    const result = validateManifest(manifest);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.issues.map((i) => `${i.code}: ${i.message}`)).toEqual([
      `route_parameter_named_route: $.routes[${before}].path names a parameter :route, which the launch parameters' route (the path of the route that matched) always replaces: rename it`,
      `duplicate_route_parameter: $.routes[${before + 1}].path names the parameter :id twice, and the app would get the last only: rename one`,
      `route_parameter_unnamed: $.routes[${before + 2}].path has a parameter with no name (a ":" alone), which the app would get as "": write a name after the colon, such as :id`,
    ]);
  });
});
