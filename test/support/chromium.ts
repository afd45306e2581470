/**
 * Debian's Chromium for the browser suites (through playwright-core; no browser download works
 * here): where it is, whether a suite runs on this machine, and the one way they launch it.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);

/**
 * True when `suite` must be skipped: off CI, on a machine without Chromium, with a warning that
 * says how to install it. In CI (where `.ci/run` installs it) a missing Chromium fails instead.
 */
export function browserSuiteSkipped(suite: string): boolean {
  const skipped = !hasChromium && !process.env.CI;
  if (skipped) {
    console.warn(
      `${suite} skipped: ${CHROMIUM} is missing (install it with "apt-get install chromium"); in CI they fail instead`,
    );
  }
  return skipped;
}

/** Chromium headless, with nothing of its own reaching the network. */
export function launchChromium(): Promise<Browser> {
  if (!hasChromium) {
    throw new Error(`${CHROMIUM} is missing: .ci/run installs it with "apt-get install chromium"`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
