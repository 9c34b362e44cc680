import { existsSync, readFileSync, rmSync } from 'node:fs'
import { STATE } from './global-setup'

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE)) return
  const { pid, sandboxPid, dir } = JSON.parse(readFileSync(STATE, 'utf8')) as { pid: number; sandboxPid?: number; dir: string }
  rmSync(STATE)
  try {
    if (sandboxPid) process.kill(sandboxPid, 'SIGTERM')
  } catch {
    /* gone */
  }
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    return
  }
  // Wait for it to go (SIGTERM closes websockets and drains requests).
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0)
    } catch {
      break
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    /* gone */
  }
  if (!process.env.E2E_KEEP) rmSync(dir, { recursive: true, force: true })
}
