// Jest runs the plain JavaScript tests with no transform: CommonJS (.cjs) as it is, ESM (.mjs) under
// `node --experimental-vm-modules`. Both import the built package by name, as a user's tests would.
const dist = '<rootDir>/../../dist';

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {},
  moduleFileExtensions: ['js', 'cjs', 'mjs', 'json'],
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'jest-cjs',
      testMatch: ['<rootDir>/test/**/*.jest.test.cjs'],
    },
    {
      ...common,
      displayName: 'jest-esm',
      testMatch: ['<rootDir>/test/**/*.jest.test.mjs'],
      // Jest's ESM resolver does not follow a package's reference to itself by name; an installed svc-sdk needs
      // no mapping. This only stands in for `node_modules/svc-sdk` inside this repository.
      moduleNameMapper: { '^svc-sdk/mock$': `${dist}/mock.js`, '^svc-sdk$': `${dist}/index.js` },
    },
  ],
};
