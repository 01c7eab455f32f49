// Jest for a TypeScript mini app: @swc/jest compiles TypeScript without the TypeScript compiler's JavaScript API
// (ts-jest needs it, and TypeScript 7, what `npm i -D typescript` installs, has none), and jsdom gives the DOM.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  transform: { '^.+\\.[cm]?[jt]sx?$': ['@swc/jest'] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Only inside this repository, where svc-sdk is the package itself: an installed svc-sdk needs no mapping.
  moduleNameMapper: {
    '^svc-sdk/mock$': '<rootDir>/../../dist/mock.cjs',
    '^svc-sdk$': '<rootDir>/../../dist/index.cjs',
  },
};
