/** The shared recorded payloads (`test/fixtures/`), read at test time, never copied. */
import fs from 'node:fs';
import type { JsonObject } from '@webhook-gateway/core';

/** The bytes of a fixture, as a sender would POST them (`gitea/pull_request_opened.json`). */
export function fixtureBytes(name: string): Buffer {
  return fs.readFileSync(new URL(`../../../../test/fixtures/${name}`, import.meta.url));
}

/** A fixture parsed. */
export function fixture(name: string): JsonObject {
  return JSON.parse(fixtureBytes(name).toString('utf8')) as JsonObject;
}

/** A unified diff of `path` whose hunk adds lines `from`..`to` of a new file. */
export function addedFileDiff(path: string, from: number, to: number): string {
  const added = Array.from({ length: to - from + 1 }, (_, i) => `+line ${from + i}`);
  return [
    `diff --git a/${path} b/${path}`,
    'index 1111111..2222222 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${from},0 +${from},${added.length} @@`,
    ...added,
    '',
  ].join('\n');
}
