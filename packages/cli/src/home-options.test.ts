import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addHomeOptions } from './home-options.js';
import { createProgram } from './program.js';

/** A throwaway command that throws instead of exiting, so a parse error can be asserted. */
function testCommand(): Command {
  return new Command('test').exitOverride().configureOutput({ writeErr: () => undefined });
}

/** Every command that runs something (no subcommands), by its full name. */
function leafCommands(command: Command, prefix = ''): Map<string, Command> {
  const leaves = new Map<string, Command>();
  for (const sub of command.commands) {
    const name = `${prefix}${sub.name()}`;
    if (sub.commands.length === 0) leaves.set(name, sub);
    for (const [leafName, leaf] of leafCommands(sub, `${name} `)) leaves.set(leafName, leaf);
  }
  return leaves;
}

function takes(command: Command, flag: string): boolean {
  return command.options.some((option) => option.long === flag);
}

describe('addHomeOptions', () => {
  it('adds --home and --config, parsed into the options', () => {
    const command = addHomeOptions(testCommand());
    command.parse(['--home', '/srv/gw', '--config', '/etc/gw.yaml'], { from: 'user' });
    expect(command.opts()).toEqual({ home: '/srv/gw', config: '/etc/gw.yaml' });
  });

  it('leaves out --config when asked, so it is refused as unknown', () => {
    const command = addHomeOptions(testCommand(), { config: false });
    command.parse(['--home', '/srv/gw'], { from: 'user' });
    expect(command.opts()).toEqual({ home: '/srv/gw' });
    expect(() => command.parse(['--config', 'x.yaml'], { from: 'user' })).toThrow(
      /unknown option '--config'/,
    );
  });

  it('gives --home and --config to every command that reads the home', async () => {
    const leaves = leafCommands(await createProgram());
    const withHome = [...leaves].filter(([, c]) => takes(c, '--home')).map(([name]) => name);
    const withConfig = [...leaves].filter(([, c]) => takes(c, '--config')).map(([name]) => name);
    // `plugin init` writes a plugin package, not a home: it has neither option.
    const everyCommand = [...leaves.keys()].filter((name) => name !== 'plugin init');
    expect(everyCommand).toEqual(
      expect.arrayContaining([
        'gateway',
        'init',
        'config schema',
        'deliveries list',
        'webhook test',
      ]),
    );
    // `config schema` reads the home too: the config's plugins add their settings to the schema.
    expect(withHome.sort()).toEqual(everyCommand.sort());
    expect(withConfig.sort()).toEqual(everyCommand.filter((n) => n !== 'init').sort());
  });
});
