/**
 * Bitbucket escapes HTML in comments, so the gateway's hidden `<!-- webhook-gateway:… -->` lines
 * would show. Each such line is written as a Markdown link reference definition instead,
 * `[//]: # (<!-- webhook-gateway:… -->)`, which renders as nothing and still holds the marker
 * text the living comment and the loop guard look for.
 */

const MARKER_LINE = /^<!-- (webhook-gateway:[^\n]*?) -->$/gm;

/**
 * `body` with each marker line hidden the Bitbucket way.
 *
 * @example hideMarkers('Hi\n\n<!-- webhook-gateway:delivery d1 -->')
 * // 'Hi\n\n[//]: # (<!-- webhook-gateway:delivery d1 -->)'
 */
export function hideMarkers(body: string): string {
  return body.replace(MARKER_LINE, '[//]: # (<!-- $1 -->)');
}
