/**
 * The repository's guidance files (`AGENTS.md`, `CLAUDE.md`, …) as one text under a token cap.
 * Files are taken in the order configured; the one that crosses the cap is cut on a token
 * boundary and marked, and any after it are named as left out.
 */
import { decode, encode } from 'gpt-tokenizer';

export interface GuidanceFile {
  path: string;
  text: string;
}

export interface Guidance {
  text: string;
  tokens: number;
  /** Files cut short or left out by the cap. */
  truncated: string[];
}

/** The default guidance files, read from the base branch when the template names them. */
export const DEFAULT_GUIDANCE_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'];

/**
 * The files, each under its own heading, within `maxTokens`.
 *
 * @example capGuidance([{ path: 'AGENTS.md', text }], 4000).text
 */
export function capGuidance(files: readonly GuidanceFile[], maxTokens: number): Guidance {
  const sections: string[] = [];
  const truncated: string[] = [];
  let used = 0;
  for (const file of files) {
    const heading = `## ${file.path}\n\n`;
    const tokens = encode(heading + file.text.trim());
    if (used + tokens.length <= maxTokens) {
      sections.push(heading + file.text.trim());
      used += tokens.length;
      continue;
    }
    truncated.push(file.path);
    const room = maxTokens - used;
    if (room > 16) {
      sections.push(`${decode(tokens.slice(0, room - 8))}\n[… cut at the guidance budget]`);
      used = maxTokens;
    }
  }
  return { text: sections.join('\n\n'), tokens: used, truncated };
}
