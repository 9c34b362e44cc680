import { defineConfig } from 'vitest/config'

// Unit tests of src/lib (npm test); the pages are covered by Playwright (e2e/).
export default defineConfig({
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.ts'],
  },
})
