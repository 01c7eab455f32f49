// CommonJS stand-in for nanoid (ESM-only) under Jest's CommonJS runtime; see jest.config.cjs.
const { randomBytes } = require('node:crypto');
exports.nanoid = (size = 21) => randomBytes(size).toString('base64url').slice(0, size);
