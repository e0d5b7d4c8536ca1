// The completion model reads each option's completion source off its declaration (OptionSpec.complete), and walks
// the command tree at any depth. Pure logic over a small commander tree built with the real makeOption.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { makeOption } from '../../src/cli/global-options.js';
import { allCommands, modelFromProgram } from '../../src/completion/model.js';

function tree(): Command {
  const root = new Command('sq');
  const noun = root.command('things');
  const verb = noun.command('link').argument('<squid>');
  verb.addOption(makeOption({ flags: '--source <x>', description: 'a squid', complete: 'squid' }));
  const deeper = verb.command('set').argument('<squid>');
  deeper.addOption(makeOption({ flags: '--from-run <r>', description: 'a run', complete: 'run' }));
  deeper.addOption(makeOption({ flags: '--kinds <list>', description: 'kinds', complete: { list: ['a', 'b'] } }));
  deeper.addOption(makeOption({ flags: '--input <path>', description: 'a local path', complete: 'file' }));
  deeper.addOption(makeOption({ flags: '--squid <s>', description: 'free text here: not declared' }));
  return root;
}

describe('completion model', () => {
  const model = modelFromProgram(tree());
  const byPath = new Map(allCommands(model).map((c) => [c.path.join(' '), c]));
  const opt = (path: string, name: string) => byPath.get(path)!.options.find((o) => o.names.includes(name))!.value;

  it('walks subcommands below a verb, to any depth', () => {
    expect([...byPath.keys()]).toEqual(['', 'things', 'things link', 'things link set']);
    expect(byPath.get('things link')!.commands.map((c) => c.name)).toEqual(['set']);
    expect(byPath.get('things link')!.args[0].value).toEqual({ kind: 'dynamic', source: 'squids' });
  });

  it('takes the value source from the option declaration, not from the option name', () => {
    expect(opt('things link', '--source')).toEqual({ kind: 'dynamic', source: 'squids' });
    expect(opt('things link set', '--from-run')).toEqual({ kind: 'dynamic', source: 'runs' });
    expect(opt('things link set', '--kinds')).toEqual({ kind: 'list', words: ['a', 'b'] });
    expect(opt('things link set', '--input')).toEqual({ kind: 'file' });
    // A --squid that declares nothing offers nothing: no table keyed by name decides for it.
    expect(opt('things link set', '--squid')).toEqual({ kind: 'free' });
  });

  it('the global --profile completes from the local profiles', () => {
    expect(byPath.get('')!.options.find((o) => o.names.includes('--profile'))!.value).toEqual({
      kind: 'dynamic',
      source: 'profiles',
    });
  });
});
