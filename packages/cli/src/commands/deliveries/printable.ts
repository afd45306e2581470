/**
 * Journal text comes from payloads, which are attacker-controlled: before it reaches a
 * terminal, control characters (escape sequences that could move the cursor, retitle the
 * window or hide text) are shown as `\xNN` instead of being sent raw.
 */

// C0 controls except tab and newline, DEL, and the C1 range (which includes CSI, 0x9b).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with every control character but tab and newline shown as `\xNN`. */
export function printable(text: string): string {
  return text.replace(
    CONTROL_CHARACTERS,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
