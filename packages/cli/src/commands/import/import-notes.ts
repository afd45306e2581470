/** The report's unit (one note per key of Hermes' files) and the files an import copies. */

export interface ImportNote {
  /** The key in Hermes' files: `config.yaml: platforms.webhook.extra.routes.ci.cron_job`. */
  key: string;
  kind: 'mapped' | 'changed' | 'left out';
  /** What it became, or what to do instead. */
  detail: string;
}

/** A file a route names, copied from Hermes' home into the gateway's. */
export interface FileCopy {
  /** The file, or for a skill the folder its name is looked up in. */
  from: string;
  /** Relative to the gateway's home. */
  to: string;
  what: 'script' | 'in_file list' | 'skill';
  key: string;
  /** For a skill: its name (`skills/<name>/SKILL.md`, or one category folder deeper). */
  skill?: string;
}
