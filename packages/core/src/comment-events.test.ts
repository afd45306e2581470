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
    expect(isOwnComment('Note Hook', note, { altforge: ['root'] })).toBe(true);
    // The same name on the other platform is another account.
    expect(isOwnComment('issue_comment', onPr, { altforge: ['lts-def'] })).toBe(false);
    expect(isOwnComment('Note Hook', note, { forge: 'root' })).toBe(false);
  });

  it('asks only of comment events', () => {
    expect(isOwnComment('pull_request', marked, { forge: 'lts-def' })).toBe(false);
  });
});

describe('Gitea, Forgejo and Bitbucket comments', () => {
  // Small payloads in each sender's documented shape (only the fields read).
  const giteaComment = (body: string, login = 'alice'): JsonObject => ({
    action: 'created',
    is_pull: true,
    issue: { number: 3, pull_request: { merged: false, merged_at: null } },
    comment: { id: 9, body, user: { login } },
    repository: { full_name: 'team/app' },
    sender: { login },
  });
  const cloudComment = (raw: string, user: JsonObject): JsonObject => ({
    actor: user,
    pullrequest: { id: 4 },
    repository: { full_name: 'team/app' },
    comment: { id: 17, content: { raw, markup: 'markdown' }, user },
  });
  const dataCenterComment = (text: string, author: JsonObject): JsonObject => ({
    eventKey: 'pr:comment:added',
    actor: author,
    pullRequest: { id: 2 },
    comment: { id: 165, version: 0, text, author },
  });
  const cloudUser = { nickname: 'emma', account_id: '557058:aa', uuid: '{a5-4f}' };
  const dataCenterUser = { name: 'gopher', slug: 'gopher', id: 3 };

  it('reads a Gitea pull-request comment as the forge does, but not an issue comment', () => {
    const comment = giteaComment('/review tests');
    expect(isCommandEvent('issue_comment', comment)).toBe(true);
    expect(deliveryCommand(['/review'], 'issue_comment', comment)).toEqual({
      name: '/review',
      args: 'tests',
    });
    const onIssue = { ...comment, is_pull: false, issue: { number: 3, pull_request: null } };
    expect(isCommandEvent('issue_comment', onIssue)).toBe(false);
    expect(commentAuthor('issue_comment', comment)).toBe('alice');
  });

  it('reads Bitbucket Cloud comment_created: body comment.content.raw, author comment.user', () => {
    const comment = cloudComment('@review-bot look at the cache', cloudUser);
    expect(isCommandEvent('pullrequest:comment_created', comment)).toBe(true);
    expect(isCommandEvent('pullrequest:comment_updated', comment)).toBe(false);
    expect(deliveryCommand(['@review-bot'], 'pullrequest:comment_created', comment)).toEqual({
      name: '@review-bot',
      args: 'look at the cache',
    });
    expect(commentAuthor('pullrequest:comment_created', comment)).toBe('emma');
    const withoutUser = { ...comment, comment: { content: { raw: 'x' } } };
    expect(commentAuthor('pullrequest:comment_created', withoutUser)).toBe('emma');
  });

  it('reads Bitbucket Data Center pr:comment:added: body comment.text, author comment.author', () => {
    const comment = dataCenterComment('/review', dataCenterUser);
    expect(isCommandEvent('pr:comment:added', comment)).toBe(true);
    expect(isCommandEvent('pr:comment:edited', comment)).toBe(false);
    expect(deliveryCommand(['/review'], 'pr:comment:added', comment)).toEqual({
      name: '/review',
      args: '',
    });
    expect(commentAuthor('pr:comment:added', comment)).toBe('gopher');
  });

  it("finds the marker in each sender's body, Bitbucket's link definition included", () => {
    const hidden = `Done.\n\n[//]: # (${gatewayMarker('d-2')})`;
    expect(isOwnComment('issue_comment', giteaComment(hidden), {}, 'gitea')).toBe(true);
    expect(isOwnComment('pullrequest:comment_created', cloudComment(hidden, cloudUser))).toBe(true);
    expect(isOwnComment('pullrequest:comment_updated', cloudComment(hidden, cloudUser))).toBe(true);
    expect(isOwnComment('pr:comment:added', dataCenterComment(hidden, dataCenterUser))).toBe(true);
    expect(isOwnComment('pr:comment:edited', dataCenterComment('hi', dataCenterUser))).toBe(false);
  });

  it("knows each platform's own account, and keeps Gitea's apart from the forge's", () => {
    const comment = giteaComment('thanks', 'review-bot');
    expect(isOwnComment('issue_comment', comment, { gitea: ['review-bot'] }, 'gitea')).toBe(true);
    // A forge account of the same name is another account on another platform.
    expect(isOwnComment('issue_comment', comment, { forge: 'review-bot' }, 'gitea')).toBe(false);
    expect(isOwnComment('issue_comment', comment, { gitea: ['review-bot'] }, 'forge')).toBe(false);
    // No scheme verified it (an open route): either platform's account counts.
    expect(isOwnComment('issue_comment', comment, { gitea: ['review-bot'] })).toBe(true);
    const cloud = cloudComment('thanks', cloudUser);
    for (const name of ['{a5-4f}', '557058:aa', 'emma']) {
      expect(isOwnComment('pullrequest:comment_created', cloud, { bitbucket: [name] })).toBe(true);
    }
    expect(isOwnComment('pullrequest:comment_created', cloud, { forge: 'emma' })).toBe(false);
    const dataCenter = dataCenterComment('thanks', dataCenterUser);
    expect(isOwnComment('pr:comment:added', dataCenter, { bitbucket: ['gopher'] })).toBe(true);
    expect(isOwnComment('pr:comment:added', dataCenter, { bitbucket: ['emma'] })).toBe(false);
  });
});
