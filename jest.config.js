// Four tiers: unit specs next to the code (immich style); integration, e2e and newcomer under test/.
// Integration and e2e talk to real Postgres, Redis, Docker and Chromium; only the model provider
// is replaced, by the project's scripted OpenAI-compatible server over real HTTP.
const swc = ['@swc/jest', {
  sourceMaps: 'inline',
  jsc: {
    parser: { syntax: 'typescript', decorators: true, tsx: true },
    // automatic: web components (which never import React) can be rendered in unit specs.
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false, react: { runtime: 'automatic' } },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
}];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: {
    // sandboxd's Nest-free entry into the config library (see tsconfig.base.json).
    '^@h/config/sandboxd$': '<rootDir>/libs/config/src/sandboxd-env.ts',
    // The CLI's Nest-free entry into the config library.
    '^@h/config/cli$': '<rootDir>/libs/config/src/cli-env.ts',
    // The web's zod-free entries into the contracts (see apps/web/tsconfig.json).
    '^@h/contracts/([a-z0-9-]+)$': '<rootDir>/libs/contracts/src/$1.ts',
    '^@h/([a-z0-9-]+)$': '<rootDir>/libs/$1/src/index.ts',
  },
  // The OTLP exporter loads node:http with a dynamic import(), which jest's CommonJS runtime
  // refuses (no --experimental-vm-modules): that one package goes through swc, which turns it into
  // require(). Node itself runs it as shipped.
  // @kubernetes/client-node and the ES-module-only packages it imports (the Kubernetes sandbox
  // driver, loaded only when one is built) likewise.
  transformIgnorePatterns: ['/node_modules/(?!(@opentelemetry/otlp-exporter-base|@kubernetes/client-node|openid-client|oauth4webapi|jose|rfc4648|jsonpath-plus)/)'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.next/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/apps/web/.next/'],
};
module.exports = {
  // A global option in jest 30 (not per project): long enough for Docker and browser tests.
  testTimeout: 120000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test/unit'], testMatch: ['**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      roots: ['<rootDir>/test/integration'],
      testMatch: ['**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      roots: ['<rootDir>/test/e2e'],
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/e2e-setup.ts',
      globalTeardown: '<rootDir>/test/support/e2e-teardown.ts',
    },
    // A fresh clone of HEAD started with the README's start command, then used in Chromium.
    { ...common, displayName: 'newcomer', roots: ['<rootDir>/test/newcomer'], testMatch: ['**/*.newcomer-spec.ts'] },
  ],
};
