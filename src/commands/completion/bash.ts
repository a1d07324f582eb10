// The bash completion script: the command tree as `case` tables, and one function that walks the
// words typed so far (skipping flags and their values) to find the command path and the argument
// being completed. Works without the bash-completion package; bash 4 or newer.

import { GENERATED, quote, shellWords } from './shell.js';
import { allNodes, spellings, type Argument, type CommandNode, type CompletionTree, type ValueCompletion } from './tree.js';

/** How the script's reply function reads a value source: words, `@list WORDS`, `@dynamic SOURCE`, `@file`. */
function encode(values: ValueCompletion | undefined): string {
  if (!values) return '';
  switch (values.kind) {
    case 'words':
      return shellWords(values.words);
    case 'list':
      return `@list ${shellWords(values.words)}`;
    case 'dynamic':
      return `@dynamic ${values.source}`;
    case 'file':
      return '@file';
  }
}

const key = (node: CommandNode) => node.path.join(' ');

function children(nodes: CommandNode[]): string[] {
  return nodes.flatMap((node) => node.children.map((child) => `        ${[child.name, ...child.aliases].map((name) => quote(`${key(node)}/${name}`)).join(' | ')}) echo ${child.name} ;;`));
}

/** One arm per command and value set: `'deals list --stage') echo '@dynamic stages' ;;`. */
function flagValues(nodes: CommandNode[]): string[] {
  return nodes.flatMap((node) => {
    const byValues = new Map<string, string[]>();
    for (const flag of node.flags.filter((candidate) => candidate.value)) {
      const encoded = encode(flag.value!.values);
      byValues.set(encoded, [...(byValues.get(encoded) ?? []), ...spellings(flag).map((spelling) => quote(`${key(node)} ${spelling}`))]);
    }
    return [...byValues].map(([encoded, patterns]) => `        ${patterns.join(' | ')})${encoded ? ` echo ${quote(encoded)}` : ''} ;;`);
  });
}

/** Per command: `case $2` over argument positions; a variadic argument takes every later one. */
function argumentValues(nodes: CommandNode[]): string[] {
  return nodes.flatMap((node) => {
    const arms = node.args.flatMap((arg: Argument, index) => (arg.values ? [`${arg.variadic ? `*) ((\$2 >= ${index})) &&` : `${index})`} echo ${quote(encode(arg.values))} ;;`] : []));
    return arms.length > 0 ? [`        ${quote(key(node))}) case $2 in ${arms.join(' ')} esac ;;`] : [];
  });
}

export function bashScript(tree: CompletionTree): string {
  const nodes = allNodes(tree.root);
  const globals = tree.globals.flatMap(spellings).join(' ');
  return `# bash completion for crm. ${GENERATED}
#
# Load it from ~/.bashrc:   source <(crm completion bash)
# or install it for bash-completion:
#   crm completion bash > ~/.local/share/bash-completion/completions/crm

# The command a word names (by name or alias) under a command path: "contacts" "ls" -> list.
__crm_child() {
    case "$1/$2" in
${children(nodes).join('\n')}
        *) return 1 ;;
    esac
}

# The names and aliases of a command's subcommands.
__crm_children() {
    case "$1" in
${nodes.filter((node) => node.children.length > 0).map((node) => `        ${quote(key(node))}) echo ${quote(node.children.flatMap((child) => [child.name, ...child.aliases]).join(' '))} ;;`).join('\n')}
    esac
}

# A command's flags, the global ones included.
__crm_flags() {
    local globals=${quote(globals)}
    case "$1" in
${nodes.map((node) => `        ${quote(key(node))}) echo "$globals "${quote(node.flags.flatMap(spellings).join(' '))} ;;`).join('\n')}
    esac
}

# Status 1 for a flag that takes no value; else what it takes: words, "@list WORDS" (comma-separated),
# "@dynamic SOURCE" (asked of crm __complete), "@file", or nothing to offer.
__crm_flag_values() {
    case "$2" in
${tree.globals.filter((flag) => flag.value).map((flag) => `        ${spellings(flag).map(quote).join(' | ')})${encode(flag.value!.values) ? ` echo ${quote(encode(flag.value!.values))};` : ''} return ;;`).join('\n')}
    esac
    case "$1 $2" in
${flagValues(nodes).join('\n')}
        *) return 1 ;;
    esac
}

# What a command's argument number $2 (from 0) takes, encoded as for flags.
__crm_argument_values() {
    case "$1" in
${argumentValues(nodes).join('\n')}
    esac
}

__crm_reply() {
    case $1 in
        @file)
            compopt -o filenames 2>/dev/null
            local IFS=$'\\n'
            COMPREPLY=($(compgen -f -- "$cur")) ;;
        '@dynamic '*)
            local value values=()
            while IFS=$'\\t' read -r value _; do values+=("$value"); done < <("\${COMP_WORDS[0]}" __complete "\${1#@dynamic }" "\${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)
            COMPREPLY=($(compgen -W "\${values[*]}" -- "$cur")) ;;
        '@list '*)
            # The next item of a comma-separated list, leaving out those already in it.
            local done=\${cur%"\${cur##*,}"} word words=()
            for word in \${1#@list }; do [[ ,$done == *,$word,* ]] || words+=("$word"); done
            compopt -o nospace 2>/dev/null
            COMPREPLY=($(compgen -P "$done" -W "\${words[*]}" -- "\${cur##*,}")) ;;
        *) COMPREPLY=($(compgen -W "$1" -- "$cur")) ;;
    esac
}

_crm() {
    local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path='' args=0 word child values i
    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=\${COMP_WORDS[i]}
        case $word in
            -*=* | = | --) ;;
            -*)
                # Skip the flag's value, and the = that bash splits off in --flag=value.
                if __crm_flag_values "$path" "$word" >/dev/null; then
                    i=$((i + 1))
                    [[ \${COMP_WORDS[i]} == = ]] && i=$((i + 1))
                fi ;;
            *)
                if ((args == 0)) && child=$(__crm_child "$path" "$word"); then
                    path=\${path:+$path }$child
                else
                    args=$((args + 1))
                fi ;;
        esac
    done
    # --flag=<TAB> and --flag=va<TAB>: bash made the = a word of its own.
    if [[ $cur == = ]]; then
        cur=''
    elif [[ $prev == = ]]; then
        prev=\${COMP_WORDS[COMP_CWORD-2]}
    fi
    if [[ $prev == -* ]] && values=$(__crm_flag_values "$path" "$prev"); then
        __crm_reply "$values"
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(__crm_flags "$path")" -- "$cur"))
    elif ((args == 0)) && values=$(__crm_children "$path") && [[ -n $values ]]; then
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
    else
        __crm_reply "$(__crm_argument_values "$path" "$args")"
    fi
}

complete -F _crm crm
`;
}
