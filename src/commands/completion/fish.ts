// The fish completion script: `complete` lines conditioned on the command path typed so far, which
// one function works out (and remembers for the many conditions of one completion).

import { GENERATED, shellWords } from './shell.js';
import { allNodes, valueFlags, type CommandNode, type CompletionTree, type Flag, type ValueCompletion } from './tree.js';

/** A single-quoted fish string: only \ and ' are special. */
const quote = (text: string) => `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
const key = (node: CommandNode) => node.path.join(' ');

/** `-a 'a b c'`, `-F`, ...: what a flag's value or an argument completes to. */
function candidates(values: ValueCompletion): string {
  switch (values.kind) {
    case 'words':
      return `-a ${quote(shellWords(values.words))}`;
    case 'list':
      return `-a ${quote(`(__crm_list ${shellWords(values.words)})`)}`;
    case 'dynamic':
      return `-a ${quote(`(__crm_dynamic ${values.source})`)}`;
    case 'file':
      return '-F';
  }
}

/** A flag's value: required (-r), and files only when it is a file (-x is -r with no files). */
function valueOptions(values: ValueCompletion | undefined): string {
  if (!values) return '-x';
  return values.kind === 'file' ? `-r ${candidates(values)}` : `-x ${candidates(values)}`;
}

function flagLine(flag: Flag, condition: string | undefined): string {
  const parts = ['complete -c crm'];
  if (condition) parts.push(`-n ${quote(condition)}`);
  if (flag.short) parts.push(`-s ${flag.short}`);
  parts.push(`-l ${flag.long}`);
  if (flag.value) parts.push(valueOptions(flag.value.values));
  parts.push(`-d ${quote(flag.description)}`);
  return parts.join(' ');
}

function commandLines(node: CommandNode): string[] {
  const at = `__crm_at ${quote(key(node))}`;
  const lines = [`# crm ${key(node)}`.trimEnd()];
  for (const child of node.children) {
    for (const name of [child.name, ...child.aliases]) lines.push(`complete -c crm -n ${quote(at)} -a ${name} -d ${quote(child.description)}`);
  }
  lines.push(...node.flags.map((flag) => flagLine(flag, at)));
  node.args.forEach((arg, index) => {
    if (!arg.values) return;
    const condition = `__crm_argument ${quote(key(node))} ${index}${arg.variadic ? ' +' : ''}`;
    lines.push(`complete -c crm -n ${quote(condition)} ${candidates(arg.values)} -d ${quote(arg.name)}`);
  });
  return lines;
}

export function fishScript(tree: CompletionTree): string {
  const nodes = allNodes(tree.root);
  const children = nodes.flatMap((node) => node.children.map((child) => `        case ${[child.name, ...child.aliases].map((name) => quote(`${key(node)}/${name}`)).join(' ')}\n            echo ${child.name}`));
  const valueFlagCases = nodes.map((node) => `        case ${quote(key(node))}\n            echo ${valueFlags(node, tree.globals).join(' ')}`);
  return `# fish completion for crm. ${GENERATED}
#
# Install it:   crm completion fish > ~/.config/fish/completions/crm.fish
# or load it for this session:   crm completion fish | source

# The command a word names (by name or alias) under a command path: contacts ls -> list.
function __crm_child
    switch "$argv[1]/$argv[2]"
${children.join('\n')}
    end
end

# The flags of a command that take a value, global ones included.
function __crm_value_flags
    switch "$argv[1]"
${valueFlagCases.join('\n')}
    end
end

# Where the command line stands: the command path typed so far, and how many arguments follow it.
# Remembered for the line, as every condition below asks.
function __crm_state
    set -l words (commandline -opc)
    test "$words" = "$__crm_state_line"; and return
    set -g __crm_state_line "$words"
    set -e words[1]
    set -l path ''
    set -l args 0
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case '--' '-*=*'
            case '-*'
                contains -- $word (string split ' ' -- (__crm_value_flags $path)); and set skip 1
            case '*'
                set -l child (__crm_child $path $word)
                if test $args = 0 -a -n "$child"
                    set path (string trim -- "$path $child")
                else
                    set args (math $args + 1)
                end
        end
    end
    set -g __crm_state_path $path
    set -g __crm_state_args $args
end

function __crm_at --argument-names path
    __crm_state
    test "$__crm_state_path" = "$path"
end

# At this command, completing its argument number N (from 0); "+": or any later one.
function __crm_argument --argument-names path index more
    __crm_at $path; or return 1
    test $__crm_state_args = $index; or begin; test "$more" = +; and test $__crm_state_args -gt $index; end
end

# The workspace's own values (stages, sequences) and the stored profiles, from crm __complete.
function __crm_dynamic
    set -l words (commandline -opc)
    set -l crm $words[1]
    set -e words[1]
    $crm __complete $argv[1] $words 2>/dev/null
end

# The next item of a comma-separated list, leaving out those already in it: contacts,de -> contacts,deals.
function __crm_list
    set -l done (string replace -r -- '[^,]*$' '' (commandline -ct))
    for word in $argv
        contains -- $word (string split , -- $done); or echo $done$word
    end
end

complete -c crm -f
${tree.globals.map((flag) => flagLine(flag, undefined)).join('\n')}

${nodes.map((node) => commandLines(node).join('\n')).join('\n\n')}
`;
}
