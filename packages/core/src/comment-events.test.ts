import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  carriesGatewayMarker,
  commentAuthor,
  deliveryCommand,
  findCommand,
  gatewayMarker,
  isCommandEvent,
  isOwnComment,
} from './comment-events.js';
import type { JsonObject } from './template.js';

const fixture = (name: string): JsonObject =>
  JSON.parse(
    fs.readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url), 'utf8'),
  ) as JsonObject;

describe('findCommand', () => {
  it('finds a command at the start, with the rest as args', () => {
    expect(findCommand(['/review'], '  /review focus on tests\n')).toEqual({
      name: '/review',
      args: 'focus on tests',
    });
    expect(findCommand(['/review'], '/review')).toEqual({ name: '/review', args: '' });
  });

  it('finds a mention anywhere, as a whole word', () => {
    expect(findCommand(['@review-bot'], 'hey @review-bot please look')).toEqual({
      name: '@review-bot',
      args: 'please look',
    });
    expect(findCommand(['@review-bot'], 'hey @review-bots')).toBeUndefined();
    expect(findCommand(['@review-bot'], 'mail me@review-bot')).toBeUndefined();
    expect(findCommand(['/review'], '/reviewer here')).toBeUndefined();
    expect(findCommand(['/review'], 'looks good to me')).toBeUndefined();
  });
});

describe('command events', () => {
  const onPr = fixture('forge/issue_comment_created.on-pull-request.json');
  const onIssue = fixture('forge/issue_comment_created.json');
  const note = fixture('altforge/note_create.json');

  it('takes forge comments on pull requests and altforge notes on merge requests', () => {
    expect(isCommandEvent('issue_comment', onPr)).toBe(true);
    expect(isCommandEvent('issue_comment', onIssue)).toBe(false);
    expect(isCommandEvent('issue_comment', { ...onPr, action: 'edited' })).toBe(false);
    expect(isCommandEvent('Note Hook', note)).toBe(true);
    expect(isCommandEvent('pull_request', onPr)).toBe(false);
  });

  it('reads the command from comment.body or object_attributes.note', () => {
    const comment = { ...(onPr.comment as JsonObject), body: '/review security' };
    expect(deliveryCommand(['/review'], 'issue_comment', { ...onPr, comment })).toEqual({
      name: '/review',
      args: 'security',
    });
    const attributes = { ...(note.object_attributes as JsonObject), note: '@bot go' };
    expect(
      deliveryCommand(['@bot'], 'Note Hook', { ...note, object_attributes: attributes }),
    ).toEqual({ name: '@bot', args: 'go' });
    expect(deliveryCommand([], 'issue_comment', { ...onPr, comment })).toBeUndefined();
  });

  it('knows the author and the gateway marker', () => {
    expect(commentAuthor('issue_comment', onPr)).toBe('lts-def');
    expect(commentAuthor('Note Hook', note)).toBe('root');
    const comment = { ...(onPr.comment as JsonObject), body: `ok\n\n${gatewayMarker('d-1')}` };
    expect(carriesGatewayMarker('issue_comment', { ...onPr, comment })).toBe(true);
    expect(carriesGatewayMarker('issue_comment', onPr)).toBe(false);
    expect(gatewayMarker('a--b>c')).toBe('<!-- webhook-gateway:delivery a-b_c -->');
  });
});

describe('isOwnComment: the loop guard', () => {
  const onPr = fixture('forge/issue_comment_created.on-pull-request.json');
  const note = fixture('altforge/note_create.json');
  const marked = {
    ...onPr,
    comment: { ...(onPr.comment as JsonObject), body: `ok\n\n${gatewayMarker('d-1')}` },
  };

  it("is the gateway's when the comment carries its marker, whoever wrote it", () => {
    expect(isOwnComment('issue_comment', marked)).toBe(true);
    expect(isOwnComment('issue_comment', onPr)).toBe(false);
  });

  it("is the gateway's when its account on that platform wrote it", () => {
    expect(isOwnComment('issue_comment', onPr, { forge: 'lts-def' })).toBe(true);
    expect(isOwnComment('Note Hook', note, { altforge: 'root' })).toBe(true);
    // The same name on the other platform is another account.
    expect(isOwnComment('issue_comment', onPr, { altforge: 'lts-def' })).toBe(false);
    expect(isOwnComment('Note Hook', note, { forge: 'root' })).toBe(false);
  });

  it('asks only of comment events', () => {
    expect(isOwnComment('pull_request', marked, { forge: 'lts-def' })).toBe(false);
  });
});
