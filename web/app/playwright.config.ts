import { defineConfig, devices } from '@playwright/test'

// make test-web: global-setup.ts starts the server binary (HMDP_BIN, or one
// built by `go build`) on a free port with a temp data dir and the embedded
// back ends; the tests read the login codes from its log.
const chromium = process.env.CHROMIUM || '/usr/bin/chromium'

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    ...devices['Pixel 7'],
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'phone', use: { browserName: 'chromium' } },
    // The page tour again on a desktop screen (axe, console, other hosts).
    {
      name: 'desktop',
      testMatch: /pages\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], browserName: 'chromium', channel: undefined },
    },
  ],
})
