// The mock under Jest's jsdom environment, loaded as a Jest user loads it (the built dist/mock.cjs).
// Run: npx tsup --silent && npx jest -c test/jsdom/jest.config.cjs
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }] },
};
