/**
 * One forge CLI run (`gh api …`, `glab api …`) as a client span of the delivery's trace (with
 * `observability.otlp`; otherwise the run alone): the program and its subcommand, never its
 * arguments or environment, which carry paths, bodies and tokens.
 */
import { traceStep } from '@webhook-gateway/core';

export function traceCliRun<T extends { exitCode?: number | undefined }>(
  cli: string,
  args: readonly string[],
  run: () => Promise<T>,
): Promise<T> {
  const program = cli.slice(cli.lastIndexOf('/') + 1);
  const command = args.find((arg) => !arg.startsWith('-')) ?? '';
  return traceStep(
    `${program} ${command}`.trim(),
    { 'webhook_gateway.cli': program, 'webhook_gateway.cli.command': command },
    async (span) => {
      const result = await run();
      if (result.exitCode !== undefined)
        span?.setAttributes({ 'process.exit.code': result.exitCode });
      return result;
    },
    'client',
  );
}
