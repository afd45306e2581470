/** The commented `config.yaml` that `webhook-gateway init` writes (pure text, unit-tested). */

/** The schema file `init` writes next to config.yaml; editors find it through the first line. */
export const SCHEMA_FILE_NAME = 'config.schema.json';

/** The default port of the webhook receiver (`docs/configuration.md#platformswebhook`). */
const INIT_PORT = 8644;

/**
 * The config file text: loopback bind, the generated secret as a literal (the file is written
 * with mode 0600), a forge pull-request review route and an altforge merge-request review route,
 * each given the review's context by the gateway (the pruned diff of what a push changed, the
 * repository's guidance and rules from its base branch), a newer push replacing a waiting one.
 */
export function initConfigYaml(options: { secret: string; port?: number }): string {
  const port = options.port ?? INIT_PORT;
  return `# yaml-language-server: $schema=./${SCHEMA_FILE_NAME}
# webhook-gateway config, written by \`webhook-gateway init\`. Every key, with what it means:
# ./${SCHEMA_FILE_NAME} (editors complete from the line above), or \`webhook-gateway config schema\`.
# Check it with \`webhook-gateway config validate\`; a running gateway reloads it when it changes.
#
# This file holds the webhook secret, so it is readable by its owner only (mode 0600). To keep
# the secret out of the file, replace the value with an environment reference: \${WEBHOOK_SECRET}.

agent:
  # dry-run answers with the rendered prompt: a safe way to try routes and templates.
  # For a real agent (the runners: agent.runner in the schema), e.g. an OpenAI-compatible server:
  #   runner: openai
  #   base_url: http://127.0.0.1:11434/v1
  #   model: qwen2.5-coder
  # What one delivery may spend, all its retries together, and the model's prices per 1k tokens,
  # prompt tokens the provider's cache served at their own price (each delivery's cost is then
  # journaled and on /metrics):
  #   max_tokens_per_delivery: 200000
  # A run stopped by that budget, max_turns or timeout_s delivers what it produced, with a notice
  # (on_limit: partial, the default), or fails (on_limit: fail):
  #   on_limit: partial
  #   prices: { prompt_per_1k: 0.00015, cached_prompt_per_1k: 0.000075, completion_per_1k: 0.0006, currency: USD }
  runner: dry-run
  terminal:
    # The agent runs only these commands, without a shell (no pipes, ";", "$(…)", redirections):
    # read-only forge commands. A command outside the list is refused and journaled, and so is one
    # over several lines, with an option that writes files or runs programs (git --output, -c;
    # gh --web, -X POST) unless its pattern names the option, or (gh, glab) naming another
    # repository than the delivery's (allow_other_repos: true lifts that).
    # allow_other_repos: false
    allow:
      - "gh pr diff *"
      - "gh pr view *"
      - "gh api repos/*/compare/*"
      - "glab api projects/*/repository/compare*"
      - "glab mr diff *"
      - "glab mr view *"
      - "git log *"
      - "git diff *"

# Prompt hygiene, on by default: HTML comments, zero-width, bidi and tag characters are taken out
# of payload text before the template sees it, and each field is capped (a route's hygiene:
# false turns it off; what was removed shows in deliveries show, the dashboard and /metrics):
# hygiene:
#   max_field_chars: 20000

# The prepared review context, for every route (a route's review: block overrides these keys):
# review:
#   max_diff_tokens: 24000        # tokens of diff the agent reads; the rest is listed as skipped
#   ignore: ["**/*.snap"]         # paths never put in the diff
#   max_guidance_tokens: 4000

platforms:
  webhook:
    enabled: true
    extra:
      # Loopback only: put a reverse proxy or a tunnel in front of it, or bind 0.0.0.0 to accept
      # deliveries from other machines (then run the agent sandboxed: agent.terminal.backend).
      host: 127.0.0.1
      port: ${port}
      # The forge signs each delivery with this secret; the altforge sends it as its token.
      # Register the same value at both ends. To rotate, list both for a while: [new, old].
      secret: "${options.secret}"
      routes:
        # forge (GitHub-style): payload URL {public_url}/webhooks/pull-requests, content type
        # application/json, the secret above, events: "Pull requests".
        pull-requests:
          events: [pull_request]
          actions: [opened, synchronize, reopened]
          filters:
            pull_request.draft: false
          # A push that arrives while the review of an older push still waits in the queue ends
          # that older one (status "superseded"): the agent never runs for a replaced head.
          supersede: true
          # The gateway prepares the review's context before the agent runs, so it needs no tool
          # call for the diff: {_gateway.diff} is the diff pruned to review.max_diff_tokens
          # (lockfiles, generated, vendored and binary files left out and listed in
          # {_gateway.skipped_files}); with review.incremental, only what changed since the head
          # this route last reviewed. {_gateway.guidance} (the agent guidance files) and
          # {_gateway.instructions} come from the repository's base branch, never the pull
          # request's head (its rules file: .webhook-gateway.yaml). Only the
          # values a prompt names are fetched; the answer ends with what was not reviewed.
          # The repository's guidance and rules come first: they change less than the diff.
          review: { incremental: true }
          prompt: |
            The repository's guidance:
            {_gateway.guidance}

            Its review instructions:
            {_gateway.instructions}

            Review pull request #{number} in {repository.full_name}: "{pull_request.title}".
            {_gateway.diff_stats}
            Files left out of the diff:
            {_gateway.skipped_files}

            The diff (prepared by the gateway; fetch more with the terminal only if you need it):
            {_gateway.diff}
          skills: [code-review]
          deliver: log
          # To answer with one comment on the pull request, edited by every later review
          # (needs \`gh\` logged in; mode: new posts a comment per review instead):
          # deliver: forge_comment
          # deliver_extra: { mode: update }
          # (add check: true to deliver_extra for a check or commit status that gates the merge,
          # details: true for the run's model, tokens, cost and range under the answer)
          # Or one review per push with comments on the changed lines (the agent's line
          # comments):
          # deliver: forge_review

        # altforge (GitLab-style): URL {public_url}/webhooks/merge-requests, the secret above as
        # the secret token, trigger: "Merge request events".
        merge-requests:
          events: [merge_request]
          actions: [open, reopen, update]
          filters:
            object_attributes.draft: false
          supersede: true
          # The same prepared context, read through glab.
          review: { incremental: true }
          prompt: |
            The repository's guidance:
            {_gateway.guidance}

            Its review instructions:
            {_gateway.instructions}

            Review merge request !{object_attributes.iid} in {project.path_with_namespace}: "{object_attributes.title}".
            {_gateway.diff_stats}
            Files left out of the diff:
            {_gateway.skipped_files}

            The diff (prepared by the gateway; fetch more with the terminal only if you need it):
            {_gateway.diff}
          skills: [code-review]
          deliver: log
          # To answer with one note on the merge request, edited by every later review (needs
          # \`glab\` logged in):
          # deliver: altforge_comment
          # deliver_extra: { mode: update }
          # (check: true and details: true work here too)
          # Or discussions on the changed lines (the agent's line comments):
          # deliver: altforge_review

  # To comment as a GitHub App instead of a person's gh login: one App
  # webhook for every repository it is installed on, and per delivery a token for that
  # repository only, with only the permissions its route needs. \`webhook-gateway app create\`
  # makes the App in one step and writes this block, its key and its route's secret.
  # forge:
  #   app:
  #     app_id: 123456
  #     private_key_file: app.pem     # in this home, mode 0600; or private_key: \${GITHUB_APP_PRIVATE_KEY}
  #   api_url: https://api.github.com # GitHub Enterprise Server: https://<host>/api/v3

  # To answer on Gitea or Forgejo pull requests through their REST API: a route with
  # deliver: gitea_comment (deliver_extra: { mode: update } keeps one comment) or gitea_review
  # (comments on the changed lines); deliver_extra: { check: true } also sets a commit status.
  # gitea:
  #   base_url: https://gitea.example.com  # the instance; its API is /api/v1 of it
  #   token: \${GITEA_TOKEN}                # an access token of the bot account
  #   bot: review-bot                      # that account's login: its comments are the gateway's

  # To answer on Bitbucket Cloud or Data Center pull requests: a route with deliver:
  # bitbucket_comment (deliver_extra: { mode: update } keeps one comment) or bitbucket_review
  # (comments on the changed lines, then the summary); deliver_extra: { check: true } also sets a
  # build status. Data Center's events (pr:opened, …) are answered through data_center.
  # bitbucket:
  #   token: \${BITBUCKET_TOKEN}            # Cloud: a workspace or repository access token
  #   bot: "{bot-account-uuid}"            # its account's uuid, account_id or nickname
  #   data_center:
  #     base_url: https://bitbucket.example.com  # the server; its API is /rest/api/1.0 of it
  #     token: \${BITBUCKET_DATA_CENTER_TOKEN}  # an HTTP access token
  #     bot: review-bot                    # that token's user: its comments are the gateway's
`;
}
