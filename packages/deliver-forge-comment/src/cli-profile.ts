/** What differs between the forge CLIs when reading their failures: names, keys, stderr texts. */

export interface CliProfile {
  /** The config key under `platforms` (`forge`, `altforge`). */
  platform: 'forge' | 'altforge';
  /** The delivery target name, prefixed to every error. */
  target: string;
  /** The subcommand, for messages (`pr comment`). */
  action: string;
  /** The host the CLI talks to when `platforms.<platform>.host` is not set. */
  defaultHost: string;
  /** stderr that means the CLI has no (valid) credentials. */
  notAuthenticated: RegExp;
  /** stderr that means the repository, project or pull/merge request does not exist (or is hidden). */
  notFound: RegExp;
  /** Other stderr worth a specific hint. */
  hints?: readonly { stderr: RegExp; hint: string }[];
}
