/**
 * Puts a new App into config.yaml, editing the file's YAML document (the `yaml` package's
 * Document API) so that everything else in it, comments included, stays as it was:
 * `platforms.forge.app`, the API URL off github.com, the public URL when given, and the route the
 * App's webhook posts to with the App's webhook secret as its `secret`.
 */
import { Document, isMap, isSeq, parseDocument, Scalar, type Node } from 'yaml';

export interface AppConfigEdit {
  appId: number;
  /** As written: relative paths are read from the gateway home. */
  privateKeyFile: string;
  route: string;
  webhookSecret: string;
  /** Written when set (`--public-url`). */
  publicUrl?: string | undefined;
  /** Written when set (a forge other than github.com). */
  apiUrl?: string | undefined;
}

/** config.yaml cannot be edited as YAML. */
export class ConfigEditError extends Error {
  constructor(file: string, why: string) {
    super(`${file}: ${why}; the App was made, but its settings were not saved there`);
    this.name = 'ConfigEditError';
  }
}

const ROUTES = ['platforms', 'webhook', 'extra', 'routes'];

/** A double-quoted string: a hex secret such as `1e100…` must not be read back as a number. */
function quoted(value: string): Scalar<string> {
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_DOUBLE;
  return scalar;
}

/** A block of lines, written as `|`. */
function literal(value: string): Scalar<string> {
  const scalar = new Scalar(value);
  scalar.type = Scalar.BLOCK_LITERAL;
  return scalar;
}

/** A new route for the App's webhook: pull requests opened or pushed to, reviewed in a comment. */
function newRoute(doc: Document, secret: string): Node {
  const route = doc.createNode({
    secret: quoted(secret),
    events: ['pull_request'],
    actions: ['opened', 'synchronize', 'reopened'],
    filters: { 'pull_request.draft': false },
    prompt: literal(
      'Review pull request #{number} in {repository.full_name}: "{pull_request.title}".\n' +
        'Fetch the diff with: gh pr diff {number} --repo {repository.full_name}\n',
    ),
    deliver: 'forge_comment',
  });
  // One line each, as `init` writes them.
  for (const key of ['events', 'actions']) {
    const list = isMap(route) ? route.get(key, true) : undefined;
    if (isSeq(list)) list.flow = true;
  }
  route.commentBefore =
    " The GitHub App's webhook (written by `webhook-gateway app create`): every repository the\n" +
    ' App is installed on. The secret is the one the forge made for the App.';
  return route;
}

/**
 * `text` (the current config.yaml, or undefined when there is none) with the App's settings put
 * in. `file` only names the file in errors.
 */
export function configWithApp(text: string | undefined, edit: AppConfigEdit, file: string): string {
  const doc = text === undefined ? new Document({}) : parseDocument(text);
  if (doc.errors.length > 0) {
    throw new ConfigEditError(
      file,
      `it is not valid YAML (${doc.errors[0]?.message.split('\n')[0] ?? ''})`,
    );
  }
  if (doc.contents === null) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) throw new ConfigEditError(file, 'it does not hold a mapping');
  try {
    doc.setIn(
      ['platforms', 'forge', 'app'],
      doc.createNode({ app_id: edit.appId, private_key_file: edit.privateKeyFile }),
    );
    if (edit.apiUrl !== undefined) doc.setIn(['platforms', 'forge', 'api_url'], edit.apiUrl);
    if (edit.publicUrl !== undefined) {
      doc.setIn(['platforms', 'webhook', 'extra', 'public_url'], edit.publicUrl);
    }
    const route = [...ROUTES, edit.route];
    // An existing route keeps its rules: only its secret becomes the App's.
    if (isMap(doc.getIn(route, true))) doc.setIn([...route, 'secret'], quoted(edit.webhookSecret));
    else doc.setIn(route, newRoute(doc, edit.webhookSecret));
  } catch (error) {
    // yaml names the key that is not a mapping where one is needed.
    throw new ConfigEditError(file, error instanceof Error ? error.message : String(error));
  }
  return doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
}
