# bash completion for crm. Generated from crm's command registry by `npm run completions`; do not edit.
#
# Load it from ~/.bashrc:   source <(crm completion bash)
# or install it for bash-completion:
#   crm completion bash > ~/.local/share/bash-completion/completions/crm

# The command a word names (by name or alias) under a command path: "contacts" "ls" -> list.
__crm_child() {
    case "$1/$2" in
        '/status') echo status ;;
        '/contacts') echo contacts ;;
        '/accounts') echo accounts ;;
        '/deals') echo deals ;;
        '/sequences') echo sequences ;;
        '/tasks') echo tasks ;;
        '/pipeline') echo pipeline ;;
        '/search') echo search ;;
        '/analytics') echo analytics ;;
        '/ai') echo ai ;;
        '/auth') echo auth ;;
        '/profiles') echo profiles ;;
        '/config') echo config ;;
        '/sandbox') echo sandbox ;;
        '/api') echo api ;;
        '/mcp') echo mcp ;;
        '/completion') echo completion ;;
        '/watch') echo watch ;;
        '/sync') echo sync ;;
        '/query') echo query ;;
        '/help') echo help ;;
        'contacts/list' | 'contacts/ls') echo list ;;
        'contacts/get') echo get ;;
        'contacts/view') echo view ;;
        'contacts/create' | 'contacts/new') echo create ;;
        'contacts/update' | 'contacts/edit') echo update ;;
        'contacts/delete' | 'contacts/rm') echo delete ;;
        'contacts/notes') echo notes ;;
        'contacts/tasks') echo tasks ;;
        'contacts/enroll') echo enroll ;;
        'contacts/import') echo import ;;
        'contacts/export') echo export ;;
        'contacts notes/list' | 'contacts notes/ls') echo list ;;
        'contacts notes/add') echo add ;;
        'contacts tasks/add') echo add ;;
        'accounts/list' | 'accounts/ls') echo list ;;
        'accounts/get') echo get ;;
        'accounts/view') echo view ;;
        'accounts/create' | 'accounts/new') echo create ;;
        'accounts/update' | 'accounts/edit') echo update ;;
        'accounts/delete' | 'accounts/rm') echo delete ;;
        'deals/list' | 'deals/ls') echo list ;;
        'deals/get') echo get ;;
        'deals/view') echo view ;;
        'deals/create' | 'deals/new') echo create ;;
        'deals/update' | 'deals/edit') echo update ;;
        'deals/delete' | 'deals/rm') echo delete ;;
        'deals/stage') echo stage ;;
        'sequences/list' | 'sequences/ls') echo list ;;
        'sequences/get' | 'sequences/view') echo get ;;
        'sequences/create' | 'sequences/new') echo create ;;
        'sequences/update' | 'sequences/edit') echo update ;;
        'sequences/delete' | 'sequences/rm') echo delete ;;
        'sequences/enroll') echo enroll ;;
        'sequences/contacts') echo contacts ;;
        'tasks/list' | 'tasks/ls') echo list ;;
        'tasks/get' | 'tasks/view') echo get ;;
        'tasks/create' | 'tasks/new') echo create ;;
        'tasks/update' | 'tasks/edit') echo update ;;
        'tasks/delete' | 'tasks/rm') echo delete ;;
        'tasks/complete' | 'tasks/done') echo complete ;;
        'pipeline/stages') echo stages ;;
        'pipeline/deals') echo deals ;;
        'ai/suggestions') echo suggestions ;;
        'ai/accept') echo accept ;;
        'ai/trigger') echo trigger ;;
        'auth/login') echo login ;;
        'auth/status') echo status ;;
        'auth/logout') echo logout ;;
        'profiles/list' | 'profiles/ls') echo list ;;
        'profiles/use') echo use ;;
        'profiles/remove' | 'profiles/rm') echo remove ;;
        'config/get') echo get ;;
        'config/set') echo set ;;
        'config/unset') echo unset ;;
        'config/list' | 'config/ls') echo list ;;
        'sandbox/init') echo init ;;
        'sandbox/serve') echo serve ;;
        'sandbox/reset') echo reset ;;
        'sandbox/status') echo status ;;
        'help/environment') echo environment ;;
        'help/exit-codes') echo exit-codes ;;
        'help/output') echo output ;;
        'help/flags') echo flags ;;
        'help/status') echo status ;;
        'help/contacts') echo contacts ;;
        'help/accounts') echo accounts ;;
        'help/deals') echo deals ;;
        'help/sequences') echo sequences ;;
        'help/tasks') echo tasks ;;
        'help/pipeline') echo pipeline ;;
        'help/search') echo search ;;
        'help/analytics') echo analytics ;;
        'help/ai') echo ai ;;
        'help/auth') echo auth ;;
        'help/profiles') echo profiles ;;
        'help/config') echo config ;;
        'help/sandbox') echo sandbox ;;
        'help/api') echo api ;;
        'help/mcp') echo mcp ;;
        'help/completion') echo completion ;;
        'help/watch') echo watch ;;
        'help/sync') echo sync ;;
        'help/query') echo query ;;
        'help contacts/list' | 'help contacts/ls') echo list ;;
        'help contacts/get') echo get ;;
        'help contacts/view') echo view ;;
        'help contacts/create' | 'help contacts/new') echo create ;;
        'help contacts/update' | 'help contacts/edit') echo update ;;
        'help contacts/delete' | 'help contacts/rm') echo delete ;;
        'help contacts/notes') echo notes ;;
        'help contacts/tasks') echo tasks ;;
        'help contacts/enroll') echo enroll ;;
        'help contacts/import') echo import ;;
        'help contacts/export') echo export ;;
        'help contacts notes/list' | 'help contacts notes/ls') echo list ;;
        'help contacts notes/add') echo add ;;
        'help contacts tasks/add') echo add ;;
        'help accounts/list' | 'help accounts/ls') echo list ;;
        'help accounts/get') echo get ;;
        'help accounts/view') echo view ;;
        'help accounts/create' | 'help accounts/new') echo create ;;
        'help accounts/update' | 'help accounts/edit') echo update ;;
        'help accounts/delete' | 'help accounts/rm') echo delete ;;
        'help deals/list' | 'help deals/ls') echo list ;;
        'help deals/get') echo get ;;
        'help deals/view') echo view ;;
        'help deals/create' | 'help deals/new') echo create ;;
        'help deals/update' | 'help deals/edit') echo update ;;
        'help deals/delete' | 'help deals/rm') echo delete ;;
        'help deals/stage') echo stage ;;
        'help sequences/list' | 'help sequences/ls') echo list ;;
        'help sequences/get' | 'help sequences/view') echo get ;;
        'help sequences/create' | 'help sequences/new') echo create ;;
        'help sequences/update' | 'help sequences/edit') echo update ;;
        'help sequences/delete' | 'help sequences/rm') echo delete ;;
        'help sequences/enroll') echo enroll ;;
        'help sequences/contacts') echo contacts ;;
        'help tasks/list' | 'help tasks/ls') echo list ;;
        'help tasks/get' | 'help tasks/view') echo get ;;
        'help tasks/create' | 'help tasks/new') echo create ;;
        'help tasks/update' | 'help tasks/edit') echo update ;;
        'help tasks/delete' | 'help tasks/rm') echo delete ;;
        'help tasks/complete' | 'help tasks/done') echo complete ;;
        'help pipeline/stages') echo stages ;;
        'help pipeline/deals') echo deals ;;
        'help ai/suggestions') echo suggestions ;;
        'help ai/accept') echo accept ;;
        'help ai/trigger') echo trigger ;;
        'help auth/login') echo login ;;
        'help auth/status') echo status ;;
        'help auth/logout') echo logout ;;
        'help profiles/list' | 'help profiles/ls') echo list ;;
        'help profiles/use') echo use ;;
        'help profiles/remove' | 'help profiles/rm') echo remove ;;
        'help config/get') echo get ;;
        'help config/set') echo set ;;
        'help config/unset') echo unset ;;
        'help config/list' | 'help config/ls') echo list ;;
        'help sandbox/init') echo init ;;
        'help sandbox/serve') echo serve ;;
        'help sandbox/reset') echo reset ;;
        'help sandbox/status') echo status ;;
        *) return 1 ;;
    esac
}

# The names and aliases of a command's subcommands.
__crm_children() {
    case "$1" in
        '') echo 'status contacts accounts deals sequences tasks pipeline search analytics ai auth profiles config sandbox api mcp completion watch sync query help' ;;
        'contacts') echo 'list ls get view create new update edit delete rm notes tasks enroll import export' ;;
        'contacts notes') echo 'list ls add' ;;
        'contacts tasks') echo 'add' ;;
        'accounts') echo 'list ls get view create new update edit delete rm' ;;
        'deals') echo 'list ls get view create new update edit delete rm stage' ;;
        'sequences') echo 'list ls get view create new update edit delete rm enroll contacts' ;;
        'tasks') echo 'list ls get view create new update edit delete rm complete done' ;;
        'pipeline') echo 'stages deals' ;;
        'ai') echo 'suggestions accept trigger' ;;
        'auth') echo 'login status logout' ;;
        'profiles') echo 'list ls use remove rm' ;;
        'config') echo 'get set unset list ls' ;;
        'sandbox') echo 'init serve reset status' ;;
        'help') echo 'environment exit-codes output flags status contacts accounts deals sequences tasks pipeline search analytics ai auth profiles config sandbox api mcp completion watch sync query' ;;
        'help contacts') echo 'list ls get view create new update edit delete rm notes tasks enroll import export' ;;
        'help contacts notes') echo 'list ls add' ;;
        'help contacts tasks') echo 'add' ;;
        'help accounts') echo 'list ls get view create new update edit delete rm' ;;
        'help deals') echo 'list ls get view create new update edit delete rm stage' ;;
        'help sequences') echo 'list ls get view create new update edit delete rm enroll contacts' ;;
        'help tasks') echo 'list ls get view create new update edit delete rm complete done' ;;
        'help pipeline') echo 'stages deals' ;;
        'help ai') echo 'suggestions accept trigger' ;;
        'help auth') echo 'login status logout' ;;
        'help profiles') echo 'list ls use remove rm' ;;
        'help config') echo 'get set unset list ls' ;;
        'help sandbox') echo 'init serve reset status' ;;
    esac
}

# A command's flags, the global ones included.
__crm_flags() {
    local globals='--json -o --output --fields --jq --escape-formulas -q --quiet --profile --base-url --no-input --no-color --debug --dry-run --timeout --wait --insecure'
    case "$1" in
        '') echo "$globals "'-h --help -V --version' ;;
        'status') echo "$globals "'-L --limit -h --help' ;;
        'contacts') echo "$globals "'-h --help' ;;
        'contacts list') echo "$globals "'-L --limit --offset --all --search --status --list-id -h --help' ;;
        'contacts get') echo "$globals "'--concurrency -h --help' ;;
        'contacts view') echo "$globals "'-L --limit -h --help' ;;
        'contacts create') echo "$globals "'--name --email --company --phone --title --status --account-id --list-ids --set --data --score -h --help' ;;
        'contacts update') echo "$globals "'--name --email --company --phone --title --status --account-id --list-ids --set --data --concurrency -h --help' ;;
        'contacts delete') echo "$globals "'-y --yes --concurrency -h --help' ;;
        'contacts notes') echo "$globals "'-h --help' ;;
        'contacts notes list') echo "$globals "'-L --limit --offset --all -h --help' ;;
        'contacts notes add') echo "$globals "'--body --body-file --set --data -h --help' ;;
        'contacts tasks') echo "$globals "'-h --help' ;;
        'contacts tasks add') echo "$globals "'--title --description --status --priority --due --deal-id --description-file --set --data -h --help' ;;
        'contacts enroll') echo "$globals "'--sequence --set --data --concurrency -h --help' ;;
        'contacts import') echo "$globals "'--format --encoding --unescape-formulas --map --concurrency --upsert --score --errors --checkpoint --resume -h --help' ;;
        'contacts export') echo "$globals "'--format --search --status --list-id -h --help' ;;
        'accounts') echo "$globals "'-h --help' ;;
        'accounts list') echo "$globals "'-L --limit --offset --all --search --industry -h --help' ;;
        'accounts get') echo "$globals "'--concurrency -h --help' ;;
        'accounts view') echo "$globals "'-L --limit -h --help' ;;
        'accounts create') echo "$globals "'--name --domain --industry --employees --set --data -h --help' ;;
        'accounts update') echo "$globals "'--name --domain --industry --employees --set --data --concurrency -h --help' ;;
        'accounts delete') echo "$globals "'-y --yes --concurrency -h --help' ;;
        'deals') echo "$globals "'-h --help' ;;
        'deals list') echo "$globals "'-L --limit --offset --all --search --stage --status --account-id --contact-id -h --help' ;;
        'deals get') echo "$globals "'--concurrency -h --help' ;;
        'deals view') echo "$globals "'-L --limit -h --help' ;;
        'deals create') echo "$globals "'--name --amount --currency --stage --account-id --contact-id --close-date --set --data -h --help' ;;
        'deals update') echo "$globals "'--name --amount --currency --stage --account-id --contact-id --close-date --set --data --concurrency -h --help' ;;
        'deals delete') echo "$globals "'-y --yes --concurrency -h --help' ;;
        'deals stage') echo "$globals "'--set --data --stage --concurrency -h --help' ;;
        'sequences') echo "$globals "'-h --help' ;;
        'sequences list') echo "$globals "'-L --limit --offset --all --search --status -h --help' ;;
        'sequences get') echo "$globals "'--concurrency -h --help' ;;
        'sequences create') echo "$globals "'--name --description --status --steps --description-file --set --data -h --help' ;;
        'sequences update') echo "$globals "'--name --description --status --steps --description-file --set --data --concurrency -h --help' ;;
        'sequences delete') echo "$globals "'-y --yes --concurrency -h --help' ;;
        'sequences enroll') echo "$globals "'--set --data --file -h --help' ;;
        'sequences contacts') echo "$globals "'-L --limit --offset --all -h --help' ;;
        'tasks') echo "$globals "'-h --help' ;;
        'tasks list') echo "$globals "'-L --limit --offset --all --search --status --priority --contact-id --deal-id --overdue --due --sort -h --help' ;;
        'tasks get') echo "$globals "'--concurrency -h --help' ;;
        'tasks create') echo "$globals "'--title --description --status --priority --due --contact-id --deal-id --description-file --set --data -h --help' ;;
        'tasks update') echo "$globals "'--title --description --status --priority --due --contact-id --deal-id --description-file --set --data --concurrency -h --help' ;;
        'tasks delete') echo "$globals "'-y --yes --concurrency -h --help' ;;
        'tasks complete') echo "$globals "'--set --data --concurrency -h --help' ;;
        'pipeline') echo "$globals "'-h --help' ;;
        'pipeline stages') echo "$globals "'-h --help' ;;
        'pipeline deals') echo "$globals "'-h --help' ;;
        'search') echo "$globals "'-L --limit --offset --all --types -h --help' ;;
        'analytics') echo "$globals "'--period -h --help' ;;
        'ai') echo "$globals "'-h --help' ;;
        'ai suggestions') echo "$globals "'-L --limit --offset --all --type --contact-id --deal-id -h --help' ;;
        'ai accept') echo "$globals "'--set --data --concurrency -h --help' ;;
        'ai trigger') echo "$globals "'--set --data -h --help' ;;
        'auth') echo "$globals "'-h --help' ;;
        'auth login') echo "$globals "'--with-key -h --help' ;;
        'auth status') echo "$globals "'-h --help' ;;
        'auth logout') echo "$globals "'-h --help' ;;
        'profiles') echo "$globals "'-h --help' ;;
        'profiles list') echo "$globals "'-h --help' ;;
        'profiles use') echo "$globals "'-h --help' ;;
        'profiles remove') echo "$globals "'-h --help' ;;
        'config') echo "$globals "'-h --help' ;;
        'config get') echo "$globals "'-h --help' ;;
        'config set') echo "$globals "'-h --help' ;;
        'config unset') echo "$globals "'-h --help' ;;
        'config list') echo "$globals "'-h --help' ;;
        'sandbox') echo "$globals "'-h --help' ;;
        'sandbox init') echo "$globals "'--force -h --help' ;;
        'sandbox serve') echo "$globals "'--port -h --help' ;;
        'sandbox reset') echo "$globals "'-y --yes -h --help' ;;
        'sandbox status') echo "$globals "'-h --help' ;;
        'api') echo "$globals "'-X --method -f --field -F --typed-field -H --header --input -i --include --paginate --raw -h --help' ;;
        'mcp') echo "$globals "'--read-only --toolsets --tools --exclude-tools -h --help' ;;
        'completion') echo "$globals "'-h --help' ;;
        'watch') echo "$globals "'--interval --once --since-start --state --max-failures --exec --exec-timeout --forward-to --secret --score --changes -h --help' ;;
        'sync') echo "$globals "'--new --full --status --forget -h --help' ;;
        'query') echo "$globals "'--file --fresh --schema -h --help' ;;
        'help') echo "$globals "'-h --help' ;;
        'help environment') echo "$globals "'-h --help' ;;
        'help exit-codes') echo "$globals "'-h --help' ;;
        'help output') echo "$globals "'-h --help' ;;
        'help flags') echo "$globals "'-h --help' ;;
        'help status') echo "$globals "'-h --help' ;;
        'help contacts') echo "$globals "'-h --help' ;;
        'help contacts list') echo "$globals "'-h --help' ;;
        'help contacts get') echo "$globals "'-h --help' ;;
        'help contacts view') echo "$globals "'-h --help' ;;
        'help contacts create') echo "$globals "'-h --help' ;;
        'help contacts update') echo "$globals "'-h --help' ;;
        'help contacts delete') echo "$globals "'-h --help' ;;
        'help contacts notes') echo "$globals "'-h --help' ;;
        'help contacts notes list') echo "$globals "'-h --help' ;;
        'help contacts notes add') echo "$globals "'-h --help' ;;
        'help contacts tasks') echo "$globals "'-h --help' ;;
        'help contacts tasks add') echo "$globals "'-h --help' ;;
        'help contacts enroll') echo "$globals "'-h --help' ;;
        'help contacts import') echo "$globals "'-h --help' ;;
        'help contacts export') echo "$globals "'-h --help' ;;
        'help accounts') echo "$globals "'-h --help' ;;
        'help accounts list') echo "$globals "'-h --help' ;;
        'help accounts get') echo "$globals "'-h --help' ;;
        'help accounts view') echo "$globals "'-h --help' ;;
        'help accounts create') echo "$globals "'-h --help' ;;
        'help accounts update') echo "$globals "'-h --help' ;;
        'help accounts delete') echo "$globals "'-h --help' ;;
        'help deals') echo "$globals "'-h --help' ;;
        'help deals list') echo "$globals "'-h --help' ;;
        'help deals get') echo "$globals "'-h --help' ;;
        'help deals view') echo "$globals "'-h --help' ;;
        'help deals create') echo "$globals "'-h --help' ;;
        'help deals update') echo "$globals "'-h --help' ;;
        'help deals delete') echo "$globals "'-h --help' ;;
        'help deals stage') echo "$globals "'-h --help' ;;
        'help sequences') echo "$globals "'-h --help' ;;
        'help sequences list') echo "$globals "'-h --help' ;;
        'help sequences get') echo "$globals "'-h --help' ;;
        'help sequences create') echo "$globals "'-h --help' ;;
        'help sequences update') echo "$globals "'-h --help' ;;
        'help sequences delete') echo "$globals "'-h --help' ;;
        'help sequences enroll') echo "$globals "'-h --help' ;;
        'help sequences contacts') echo "$globals "'-h --help' ;;
        'help tasks') echo "$globals "'-h --help' ;;
        'help tasks list') echo "$globals "'-h --help' ;;
        'help tasks get') echo "$globals "'-h --help' ;;
        'help tasks create') echo "$globals "'-h --help' ;;
        'help tasks update') echo "$globals "'-h --help' ;;
        'help tasks delete') echo "$globals "'-h --help' ;;
        'help tasks complete') echo "$globals "'-h --help' ;;
        'help pipeline') echo "$globals "'-h --help' ;;
        'help pipeline stages') echo "$globals "'-h --help' ;;
        'help pipeline deals') echo "$globals "'-h --help' ;;
        'help search') echo "$globals "'-h --help' ;;
        'help analytics') echo "$globals "'-h --help' ;;
        'help ai') echo "$globals "'-h --help' ;;
        'help ai suggestions') echo "$globals "'-h --help' ;;
        'help ai accept') echo "$globals "'-h --help' ;;
        'help ai trigger') echo "$globals "'-h --help' ;;
        'help auth') echo "$globals "'-h --help' ;;
        'help auth login') echo "$globals "'-h --help' ;;
        'help auth status') echo "$globals "'-h --help' ;;
        'help auth logout') echo "$globals "'-h --help' ;;
        'help profiles') echo "$globals "'-h --help' ;;
        'help profiles list') echo "$globals "'-h --help' ;;
        'help profiles use') echo "$globals "'-h --help' ;;
        'help profiles remove') echo "$globals "'-h --help' ;;
        'help config') echo "$globals "'-h --help' ;;
        'help config get') echo "$globals "'-h --help' ;;
        'help config set') echo "$globals "'-h --help' ;;
        'help config unset') echo "$globals "'-h --help' ;;
        'help config list') echo "$globals "'-h --help' ;;
        'help sandbox') echo "$globals "'-h --help' ;;
        'help sandbox init') echo "$globals "'-h --help' ;;
        'help sandbox serve') echo "$globals "'-h --help' ;;
        'help sandbox reset') echo "$globals "'-h --help' ;;
        'help sandbox status') echo "$globals "'-h --help' ;;
        'help api') echo "$globals "'-h --help' ;;
        'help mcp') echo "$globals "'-h --help' ;;
        'help completion') echo "$globals "'-h --help' ;;
        'help watch') echo "$globals "'-h --help' ;;
        'help sync') echo "$globals "'-h --help' ;;
        'help query') echo "$globals "'-h --help' ;;
    esac
}

# Status 1 for a flag that takes no value; else what it takes: words, "@list WORDS" (comma-separated),
# "@dynamic SOURCE" (asked of crm __complete), "@file", or nothing to offer.
__crm_flag_values() {
    case "$2" in
        '-o' | '--output') echo 'table json ndjson csv tsv'; return ;;
        '--fields') return ;;
        '--jq') return ;;
        '--profile') echo '@dynamic profiles'; return ;;
        '--base-url') return ;;
        '--timeout') return ;;
    esac
    case "$1 $2" in
        'status -L' | 'status --limit') ;;
        'contacts list -L' | 'contacts list --limit' | 'contacts list --offset' | 'contacts list --search' | 'contacts list --list-id') ;;
        'contacts list --status') echo 'lead prospect customer churned' ;;
        'contacts get --concurrency') ;;
        'contacts view -L' | 'contacts view --limit') ;;
        'contacts create --name' | 'contacts create --email' | 'contacts create --company' | 'contacts create --phone' | 'contacts create --title' | 'contacts create --account-id' | 'contacts create --list-ids' | 'contacts create --set' | 'contacts create --data') ;;
        'contacts create --status') echo 'lead prospect customer churned' ;;
        'contacts update --name' | 'contacts update --email' | 'contacts update --company' | 'contacts update --phone' | 'contacts update --title' | 'contacts update --account-id' | 'contacts update --list-ids' | 'contacts update --set' | 'contacts update --data' | 'contacts update --concurrency') ;;
        'contacts update --status') echo 'lead prospect customer churned' ;;
        'contacts delete --concurrency') ;;
        'contacts notes list -L' | 'contacts notes list --limit' | 'contacts notes list --offset') ;;
        'contacts notes add --body' | 'contacts notes add --set' | 'contacts notes add --data') ;;
        'contacts notes add --body-file') echo '@file' ;;
        'contacts tasks add --title' | 'contacts tasks add --description' | 'contacts tasks add --due' | 'contacts tasks add --deal-id' | 'contacts tasks add --set' | 'contacts tasks add --data') ;;
        'contacts tasks add --status') echo 'open completed' ;;
        'contacts tasks add --priority') echo 'low normal high' ;;
        'contacts tasks add --description-file') echo '@file' ;;
        'contacts enroll --sequence') echo '@dynamic sequences' ;;
        'contacts enroll --set' | 'contacts enroll --data' | 'contacts enroll --concurrency') ;;
        'contacts import --format') echo 'csv ndjson json' ;;
        'contacts import --encoding') echo 'utf8 latin1 cp1252' ;;
        'contacts import --map' | 'contacts import --concurrency') ;;
        'contacts import --errors' | 'contacts import --checkpoint') echo '@file' ;;
        'contacts export --format') echo 'csv ndjson json' ;;
        'contacts export --search' | 'contacts export --list-id') ;;
        'contacts export --status') echo 'lead prospect customer churned' ;;
        'accounts list -L' | 'accounts list --limit' | 'accounts list --offset' | 'accounts list --search' | 'accounts list --industry') ;;
        'accounts get --concurrency') ;;
        'accounts view -L' | 'accounts view --limit') ;;
        'accounts create --name' | 'accounts create --domain' | 'accounts create --industry' | 'accounts create --employees' | 'accounts create --set' | 'accounts create --data') ;;
        'accounts update --name' | 'accounts update --domain' | 'accounts update --industry' | 'accounts update --employees' | 'accounts update --set' | 'accounts update --data' | 'accounts update --concurrency') ;;
        'accounts delete --concurrency') ;;
        'deals list -L' | 'deals list --limit' | 'deals list --offset' | 'deals list --search' | 'deals list --account-id' | 'deals list --contact-id') ;;
        'deals list --stage') echo '@dynamic stages' ;;
        'deals list --status') echo 'open won lost' ;;
        'deals get --concurrency') ;;
        'deals view -L' | 'deals view --limit') ;;
        'deals create --name' | 'deals create --amount' | 'deals create --currency' | 'deals create --account-id' | 'deals create --contact-id' | 'deals create --close-date' | 'deals create --set' | 'deals create --data') ;;
        'deals create --stage') echo '@dynamic stages' ;;
        'deals update --name' | 'deals update --amount' | 'deals update --currency' | 'deals update --account-id' | 'deals update --contact-id' | 'deals update --close-date' | 'deals update --set' | 'deals update --data' | 'deals update --concurrency') ;;
        'deals update --stage') echo '@dynamic stages' ;;
        'deals delete --concurrency') ;;
        'deals stage --set' | 'deals stage --data' | 'deals stage --concurrency') ;;
        'deals stage --stage') echo '@dynamic stages' ;;
        'sequences list -L' | 'sequences list --limit' | 'sequences list --offset' | 'sequences list --search') ;;
        'sequences list --status') echo 'active paused archived' ;;
        'sequences get --concurrency') ;;
        'sequences create --name' | 'sequences create --description' | 'sequences create --steps' | 'sequences create --set' | 'sequences create --data') ;;
        'sequences create --status') echo 'active paused archived' ;;
        'sequences create --description-file') echo '@file' ;;
        'sequences update --name' | 'sequences update --description' | 'sequences update --steps' | 'sequences update --set' | 'sequences update --data' | 'sequences update --concurrency') ;;
        'sequences update --status') echo 'active paused archived' ;;
        'sequences update --description-file') echo '@file' ;;
        'sequences delete --concurrency') ;;
        'sequences enroll --set' | 'sequences enroll --data') ;;
        'sequences enroll --file') echo '@file' ;;
        'sequences contacts -L' | 'sequences contacts --limit' | 'sequences contacts --offset') ;;
        'tasks list -L' | 'tasks list --limit' | 'tasks list --offset' | 'tasks list --search' | 'tasks list --contact-id' | 'tasks list --deal-id' | 'tasks list --due') ;;
        'tasks list --status') echo 'open completed' ;;
        'tasks list --priority') echo 'low normal high' ;;
        'tasks list --sort') echo 'due' ;;
        'tasks get --concurrency') ;;
        'tasks create --title' | 'tasks create --description' | 'tasks create --due' | 'tasks create --contact-id' | 'tasks create --deal-id' | 'tasks create --set' | 'tasks create --data') ;;
        'tasks create --status') echo 'open completed' ;;
        'tasks create --priority') echo 'low normal high' ;;
        'tasks create --description-file') echo '@file' ;;
        'tasks update --title' | 'tasks update --description' | 'tasks update --due' | 'tasks update --contact-id' | 'tasks update --deal-id' | 'tasks update --set' | 'tasks update --data' | 'tasks update --concurrency') ;;
        'tasks update --status') echo 'open completed' ;;
        'tasks update --priority') echo 'low normal high' ;;
        'tasks update --description-file') echo '@file' ;;
        'tasks delete --concurrency') ;;
        'tasks complete --set' | 'tasks complete --data' | 'tasks complete --concurrency') ;;
        'search -L' | 'search --limit' | 'search --offset') ;;
        'search --types') echo '@list contacts deals accounts tasks' ;;
        'analytics --period') echo '7d 30d 90d' ;;
        'ai suggestions -L' | 'ai suggestions --limit' | 'ai suggestions --offset' | 'ai suggestions --contact-id' | 'ai suggestions --deal-id') ;;
        'ai suggestions --type') echo 'next_best_action follow_up deal_risk' ;;
        'ai accept --set' | 'ai accept --data' | 'ai accept --concurrency') ;;
        'ai trigger --set' | 'ai trigger --data') ;;
        'sandbox serve --port') ;;
        'api -X' | 'api --method') echo 'GET POST PATCH PUT DELETE' ;;
        'api -f' | 'api --field' | 'api -F' | 'api --typed-field' | 'api -H' | 'api --header') ;;
        'api --input') echo '@file' ;;
        'mcp --toolsets') echo '@list contacts accounts deals sequences tasks pipeline search analytics ai' ;;
        'mcp --tools' | 'mcp --exclude-tools') ;;
        'watch --interval' | 'watch --max-failures' | 'watch --exec' | 'watch --exec-timeout' | 'watch --forward-to' | 'watch --secret') ;;
        'watch --state') echo '@file' ;;
        'query --file') echo '@file' ;;
        *) return 1 ;;
    esac
}

# What a command's argument number $2 (from 0) takes, encoded as for flags.
__crm_argument_values() {
    case "$1" in
        'contacts import') case $2 in 0) echo '@file' ;; esac ;;
        'deals stage') case $2 in *) (($2 >= 0)) && echo '@dynamic stages' ;; esac ;;
        'profiles use') case $2 in 0) echo '@dynamic profiles' ;; esac ;;
        'profiles remove') case $2 in 0) echo '@dynamic profiles' ;; esac ;;
        'config get') case $2 in 0) echo 'base_url output timeout api_key' ;; esac ;;
        'config set') case $2 in 0) echo 'base_url output timeout' ;; esac ;;
        'config unset') case $2 in 0) echo 'base_url output timeout' ;; esac ;;
        'api') case $2 in 0) echo 'GET POST PATCH PUT DELETE' ;; esac ;;
        'completion') case $2 in 0) echo 'bash zsh fish' ;; esac ;;
        'watch') case $2 in 0) echo 'contacts deals tasks accounts sequences' ;; esac ;;
        'sync') case $2 in *) (($2 >= 0)) && echo 'contacts accounts deals sequences tasks stages enrollments notes' ;; esac ;;
    esac
}

__crm_reply() {
    case $1 in
        @file)
            compopt -o filenames 2>/dev/null
            local IFS=$'\n'
            COMPREPLY=($(compgen -f -- "$cur")) ;;
        '@dynamic '*)
            local value values=()
            while IFS=$'\t' read -r value _; do values+=("$value"); done < <("${COMP_WORDS[0]}" __complete "${1#@dynamic }" "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)
            COMPREPLY=($(compgen -W "${values[*]}" -- "$cur")) ;;
        '@list '*)
            # The next item of a comma-separated list, leaving out those already in it.
            local done=${cur%"${cur##*,}"} word words=()
            for word in ${1#@list }; do [[ ,$done == *,$word,* ]] || words+=("$word"); done
            compopt -o nospace 2>/dev/null
            COMPREPLY=($(compgen -P "$done" -W "${words[*]}" -- "${cur##*,}")) ;;
        *) COMPREPLY=($(compgen -W "$1" -- "$cur")) ;;
    esac
}

_crm() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path='' args=0 word child values i
    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            -*=* | = | --) ;;
            -*)
                # Skip the flag's value, and the = that bash splits off in --flag=value.
                if __crm_flag_values "$path" "$word" >/dev/null; then
                    i=$((i + 1))
                    [[ ${COMP_WORDS[i]} == = ]] && i=$((i + 1))
                fi ;;
            *)
                if ((args == 0)) && child=$(__crm_child "$path" "$word"); then
                    path=${path:+$path }$child
                else
                    args=$((args + 1))
                fi ;;
        esac
    done
    # --flag=<TAB> and --flag=va<TAB>: bash made the = a word of its own.
    if [[ $cur == = ]]; then
        cur=''
    elif [[ $prev == = ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
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
