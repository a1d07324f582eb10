// The zsh completion script: one function per command, built on _arguments (flags with their
// descriptions and values, positional arguments) and _describe (subcommands), as zsh's own
// completions are. Works autoloaded from $fpath and sourced. Each function calls _arguments itself:
// called from a helper function, its `*::` would not narrow `words` for the subcommand's function.
// A group reads flags only before its subcommand (-A): later ones are the subcommand's.

import { GENERATED, quote, shellWords } from './shell.js';
import { allNodes, spellings, type Argument, type CommandNode, type CompletionTree, type Flag, type ValueCompletion } from './tree.js';

const functionName = (node: CommandNode) => ['_crm', ...node.path].join('_').replace(/-/g, '_');

/** Text inside _arguments' [description]. */
const bracketed = (text: string) => text.replace(/[\\\]]/g, (char) => `\\${char}`);

function action(values: ValueCompletion | undefined): string {
  if (!values) return '';
  switch (values.kind) {
    case 'words':
      return `(${shellWords(values.words)})`;
    case 'list':
      return `_values -s , values ${shellWords(values.words)}`;
    case 'dynamic':
      return `__crm_dynamic ${values.source}`;
    case 'file':
      return '_files';
  }
}

/** `'(-o --output)'{-o+,--output=}'[output format]:format:(table json ...)'`, as one shell word. */
function flagSpec(flag: Flag): string {
  const names = spellings(flag);
  const value = flag.value ? `:${flag.value.name}:${action(flag.value.values)}` : '';
  const description = `[${bracketed(flag.description)}]${value}`;
  const repeat = flag.repeatable ? '*' : '';
  if (names.length === 1) return quote(`${repeat}${names[0]}${flag.value ? '=' : ''}${description}`);
  const exclusive = flag.repeatable ? '*' : `(${names.join(' ')})`;
  const spelled = names.map((name) => `${name}${flag.value ? (name.startsWith('--') ? '=' : '+') : ''}`);
  return `${quote(exclusive)}{${spelled.join(',')}}${quote(description)}`;
}

function argumentSpec(arg: Argument, index: number): string {
  const position = arg.variadic ? '*' : String(index + 1);
  return quote(`${position}${arg.optional && !arg.variadic ? '::' : ':'}${arg.name}:${action(arg.values)}`);
}

function commandFunction(node: CommandNode): string {
  const specs = [...node.flags.map(flagSpec), ...node.args.map(argumentSpec)];
  if (node.children.length === 0) {
    return `${functionName(node)}() {\n  _arguments -s -S $__crm_global_flags \\\n    ${specs.join(' \\\n    ')}\n}`;
  }
  const subcommands = node.children.flatMap((child) => [child.name, ...child.aliases].map((name) => quote(`${name}:${child.description}`)));
  const dispatch = node.children.map((child) => `    ${[child.name, ...child.aliases].join('|')}) ${functionName(child)} ;;`);
  return `${functionName(node)}() {
  local curcontext=$curcontext state line
  typeset -A opt_args
  _arguments -s -S -C -A '-*' $__crm_global_flags \\
    ${specs.join(' \\\n    ')} \\
    ': :->command' \\
    '*:: :->argument'
  case $state in
  command)
    local -a subcommands=(
      ${subcommands.join('\n      ')}
    )
    _describe -t commands ${quote(`${['crm', ...node.path].join(' ')} command`)} subcommands ;;
  argument)
    case $line[1] in
${dispatch.map((line) => `  ${line}`).join('\n')}
    esac ;;
  esac
}`;
}

export function zshScript(tree: CompletionTree): string {
  const [root, ...commands] = allNodes(tree.root);
  return `#compdef crm
# zsh completion for crm. ${GENERATED}
#
# Install it in a folder of $fpath (before compinit runs in ~/.zshrc):
#   crm completion zsh > "\${fpath[1]}/_crm"
# or load it in ~/.zshrc after compinit:   source <(crm completion zsh)

# The flags every command takes (global: functions below use them).
typeset -ga __crm_global_flags
__crm_global_flags=(
  ${tree.globals.map(flagSpec).join('\n  ')}
)

# The workspace's own values (stages, sequences) and the stored profiles, from crm __complete. As an
# _arguments action it is called with compadd options first; the source is the last argument.
__crm_dynamic() {
  local source=\${@[-1]} line
  local -a values
  for line in \${(f)"$(\${__crm_words[1]} __complete $source \${__crm_words[2,-1]} 2>/dev/null)"}; do
    values+=("\${line%%$'\\t'*}:\${line#*$'\\t'}")
  done
  _describe -t $source $source values
}

${[root!, ...commands].map((node) => (node === root ? commandFunction(node).replace('() {\n', '() {\n  local -a __crm_words=(${words[1,CURRENT-1]})\n') : commandFunction(node))).join('\n\n')}

# Autoloaded, this file is the body of _crm: it defines the functions, then completes. Sourced, it
# registers _crm for crm.
if [[ $funcstack[1] == _crm ]]; then
  _crm "$@"
else
  compdef _crm crm
fi
`;
}
