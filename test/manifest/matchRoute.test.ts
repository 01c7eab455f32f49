// Deep links launch the app only at routes its manifest declares, with their parameters.
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/manifest/matchRoute';

const routes = [{ path: '/' }, { path: '/poll' }, { path: '/poll/:id/results' }];

describe('matchRoute', () => {
  it('matches a declared route, with its query and path parameters', () => {
    expect(matchRoute(routes, '/poll?id=7')).toEqual({ route: '/poll', id: '7' });
    expect(matchRoute(routes, '/poll/p%201/results')).toEqual({ route: '/poll/:id/results', id: 'p 1' });
    expect(matchRoute(routes, '/')).toEqual({ route: '/' });
  });

  it('refuses a link to a route the manifest does not declare', () => {
    expect(matchRoute(routes, '/admin')).toBeUndefined();
    expect(matchRoute(routes, '/poll/7')).toBeUndefined();
  });

  it('never lets the query override the route', () => {
    expect(matchRoute(routes, '/poll?route=/admin')).toEqual({ route: '/poll' });
  });

  it('matches nothing with a fragment, which would end up inside a parameter or the last query value', () => {
    expect(matchRoute(routes, '/poll/7#votes/results')).toBeUndefined();
    expect(matchRoute(routes, '/poll?id=7#votes')).toBeUndefined();
    expect(matchRoute(routes, '/poll/7%23votes/results')).toEqual({ route: '/poll/:id/results', id: '7#votes' });
  });
});

describe('matchRoute on encoded and composed text', () => {
  const cafe = [{ path: '/café' }, { path: '/p/:id' }];

  it('compares each segment percent-decoded and in NFC on both sides', () => {
    expect(matchRoute(cafe, '/caf%C3%A9')).toEqual({ route: '/café' });
    expect(matchRoute(cafe, '/cafe\u0301')).toEqual({ route: '/café' });
    expect(matchRoute([{ path: '/caf%C3%A9' }], '/café')).toEqual({ route: '/caf%C3%A9' });
    // An encoded slash stays inside its segment: it never makes two of one.
    expect(matchRoute(cafe, '/p/a%2Fb')).toEqual({ route: '/p/:id', id: 'a/b' });
  });

  it('matches nothing, and never throws, on malformed percent-encoding', () => {
    expect(matchRoute(cafe, '/p/%E0')).toBeUndefined();
    expect(matchRoute(cafe, '/caf%C3')).toBeUndefined();
  });
});
