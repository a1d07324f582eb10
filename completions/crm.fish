# fish completion for crm. Generated from crm's command registry by `npm run completions`; do not edit.
#
# Install it:   crm completion fish > ~/.config/fish/completions/crm.fish
# or load it for this session:   crm completion fish | source

# The command a word names (by name or alias) under a command path: contacts ls -> list.
function __crm_child
    switch "$argv[1]/$argv[2]"
        case '/status'
            echo status
        case '/contacts'
            echo contacts
        case '/accounts'
            echo accounts
        case '/deals'
            echo deals
        case '/sequences'
            echo sequences
        case '/tasks'
            echo tasks
        case '/pipeline'
            echo pipeline
        case '/search'
            echo search
        case '/analytics'
            echo analytics
        case '/ai'
            echo ai
        case '/auth'
            echo auth
        case '/profiles'
            echo profiles
        case '/config'
            echo config
        case '/sandbox'
            echo sandbox
        case '/api'
            echo api
        case '/mcp'
            echo mcp
        case '/completion'
            echo completion
        case '/watch'
            echo watch
        case '/sync'
            echo sync
        case '/query'
            echo query
        case '/help'
            echo help
        case 'contacts/list' 'contacts/ls'
            echo list
        case 'contacts/get'
            echo get
        case 'contacts/view'
            echo view
        case 'contacts/create' 'contacts/new'
            echo create
        case 'contacts/update' 'contacts/edit'
            echo update
        case 'contacts/delete' 'contacts/rm'
            echo delete
        case 'contacts/notes'
            echo notes
        case 'contacts/tasks'
            echo tasks
        case 'contacts/enroll'
            echo enroll
        case 'contacts/import'
            echo import
        case 'contacts/export'
            echo export
        case 'contacts notes/list' 'contacts notes/ls'
            echo list
        case 'contacts notes/add'
            echo add
        case 'contacts tasks/add'
            echo add
        case 'accounts/list' 'accounts/ls'
            echo list
        case 'accounts/get'
            echo get
        case 'accounts/view'
            echo view
        case 'accounts/create' 'accounts/new'
            echo create
        case 'accounts/update' 'accounts/edit'
            echo update
        case 'accounts/delete' 'accounts/rm'
            echo delete
        case 'deals/list' 'deals/ls'
            echo list
        case 'deals/get'
            echo get
        case 'deals/view'
            echo view
        case 'deals/create' 'deals/new'
            echo create
        case 'deals/update' 'deals/edit'
            echo update
        case 'deals/delete' 'deals/rm'
            echo delete
        case 'deals/stage'
            echo stage
        case 'sequences/list' 'sequences/ls'
            echo list
        case 'sequences/get' 'sequences/view'
            echo get
        case 'sequences/create' 'sequences/new'
            echo create
        case 'sequences/update' 'sequences/edit'
            echo update
        case 'sequences/delete' 'sequences/rm'
            echo delete
        case 'sequences/enroll'
            echo enroll
        case 'sequences/contacts'
            echo contacts
        case 'tasks/list' 'tasks/ls'
            echo list
        case 'tasks/get' 'tasks/view'
            echo get
        case 'tasks/create' 'tasks/new'
            echo create
        case 'tasks/update' 'tasks/edit'
            echo update
        case 'tasks/delete' 'tasks/rm'
            echo delete
        case 'tasks/complete' 'tasks/done'
            echo complete
        case 'pipeline/stages'
            echo stages
        case 'pipeline/deals'
            echo deals
        case 'ai/suggestions'
            echo suggestions
        case 'ai/accept'
            echo accept
        case 'ai/trigger'
            echo trigger
        case 'auth/login'
            echo login
        case 'auth/status'
            echo status
        case 'auth/logout'
            echo logout
        case 'profiles/list' 'profiles/ls'
            echo list
        case 'profiles/use'
            echo use
        case 'profiles/remove' 'profiles/rm'
            echo remove
        case 'config/get'
            echo get
        case 'config/set'
            echo set
        case 'config/unset'
            echo unset
        case 'config/list' 'config/ls'
            echo list
        case 'sandbox/init'
            echo init
        case 'sandbox/serve'
            echo serve
        case 'sandbox/reset'
            echo reset
        case 'sandbox/status'
            echo status
        case 'help/environment'
            echo environment
        case 'help/exit-codes'
            echo exit-codes
        case 'help/output'
            echo output
        case 'help/flags'
            echo flags
        case 'help/status'
            echo status
        case 'help/contacts'
            echo contacts
        case 'help/accounts'
            echo accounts
        case 'help/deals'
            echo deals
        case 'help/sequences'
            echo sequences
        case 'help/tasks'
            echo tasks
        case 'help/pipeline'
            echo pipeline
        case 'help/search'
            echo search
        case 'help/analytics'
            echo analytics
        case 'help/ai'
            echo ai
        case 'help/auth'
            echo auth
        case 'help/profiles'
            echo profiles
        case 'help/config'
            echo config
        case 'help/sandbox'
            echo sandbox
        case 'help/api'
            echo api
        case 'help/mcp'
            echo mcp
        case 'help/completion'
            echo completion
        case 'help/watch'
            echo watch
        case 'help/sync'
            echo sync
        case 'help/query'
            echo query
        case 'help contacts/list' 'help contacts/ls'
            echo list
        case 'help contacts/get'
            echo get
        case 'help contacts/view'
            echo view
        case 'help contacts/create' 'help contacts/new'
            echo create
        case 'help contacts/update' 'help contacts/edit'
            echo update
        case 'help contacts/delete' 'help contacts/rm'
            echo delete
        case 'help contacts/notes'
            echo notes
        case 'help contacts/tasks'
            echo tasks
        case 'help contacts/enroll'
            echo enroll
        case 'help contacts/import'
            echo import
        case 'help contacts/export'
            echo export
        case 'help contacts notes/list' 'help contacts notes/ls'
            echo list
        case 'help contacts notes/add'
            echo add
        case 'help contacts tasks/add'
            echo add
        case 'help accounts/list' 'help accounts/ls'
            echo list
        case 'help accounts/get'
            echo get
        case 'help accounts/view'
            echo view
        case 'help accounts/create' 'help accounts/new'
            echo create
        case 'help accounts/update' 'help accounts/edit'
            echo update
        case 'help accounts/delete' 'help accounts/rm'
            echo delete
        case 'help deals/list' 'help deals/ls'
            echo list
        case 'help deals/get'
            echo get
        case 'help deals/view'
            echo view
        case 'help deals/create' 'help deals/new'
            echo create
        case 'help deals/update' 'help deals/edit'
            echo update
        case 'help deals/delete' 'help deals/rm'
            echo delete
        case 'help deals/stage'
            echo stage
        case 'help sequences/list' 'help sequences/ls'
            echo list
        case 'help sequences/get' 'help sequences/view'
            echo get
        case 'help sequences/create' 'help sequences/new'
            echo create
        case 'help sequences/update' 'help sequences/edit'
            echo update
        case 'help sequences/delete' 'help sequences/rm'
            echo delete
        case 'help sequences/enroll'
            echo enroll
        case 'help sequences/contacts'
            echo contacts
        case 'help tasks/list' 'help tasks/ls'
            echo list
        case 'help tasks/get' 'help tasks/view'
            echo get
        case 'help tasks/create' 'help tasks/new'
            echo create
        case 'help tasks/update' 'help tasks/edit'
            echo update
        case 'help tasks/delete' 'help tasks/rm'
            echo delete
        case 'help tasks/complete' 'help tasks/done'
            echo complete
        case 'help pipeline/stages'
            echo stages
        case 'help pipeline/deals'
            echo deals
        case 'help ai/suggestions'
            echo suggestions
        case 'help ai/accept'
            echo accept
        case 'help ai/trigger'
            echo trigger
        case 'help auth/login'
            echo login
        case 'help auth/status'
            echo status
        case 'help auth/logout'
            echo logout
        case 'help profiles/list' 'help profiles/ls'
            echo list
        case 'help profiles/use'
            echo use
        case 'help profiles/remove' 'help profiles/rm'
            echo remove
        case 'help config/get'
            echo get
        case 'help config/set'
            echo set
        case 'help config/unset'
            echo unset
        case 'help config/list' 'help config/ls'
            echo list
        case 'help sandbox/init'
            echo init
        case 'help sandbox/serve'
            echo serve
        case 'help sandbox/reset'
            echo reset
        case 'help sandbox/status'
            echo status
    end
end

# The flags of a command that take a value, global ones included.
function __crm_value_flags
    switch "$argv[1]"
        case ''
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'status'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L
        case 'contacts'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'contacts list'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset --search --status --list-id
        case 'contacts get'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'contacts view'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L
        case 'contacts create'
            echo --output -o --fields --jq --profile --base-url --timeout --name --email --company --phone --title --status --account-id --list-ids --set --data
        case 'contacts update'
            echo --output -o --fields --jq --profile --base-url --timeout --name --email --company --phone --title --status --account-id --list-ids --set --data --concurrency
        case 'contacts delete'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'contacts notes'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'contacts notes list'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset
        case 'contacts notes add'
            echo --output -o --fields --jq --profile --base-url --timeout --body --body-file --set --data
        case 'contacts tasks'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'contacts tasks add'
            echo --output -o --fields --jq --profile --base-url --timeout --title --description --status --priority --due --deal-id --description-file --set --data
        case 'contacts enroll'
            echo --output -o --fields --jq --profile --base-url --timeout --sequence --set --data --concurrency
        case 'contacts import'
            echo --output -o --fields --jq --profile --base-url --timeout --format --encoding --map --concurrency --errors --checkpoint
        case 'contacts export'
            echo --output -o --fields --jq --profile --base-url --timeout --format --search --status --list-id
        case 'accounts'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'accounts list'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset --search --industry
        case 'accounts get'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'accounts view'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L
        case 'accounts create'
            echo --output -o --fields --jq --profile --base-url --timeout --name --domain --industry --employees --set --data
        case 'accounts update'
            echo --output -o --fields --jq --profile --base-url --timeout --name --domain --industry --employees --set --data --concurrency
        case 'accounts delete'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'deals'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'deals list'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset --search --stage --status --account-id --contact-id
        case 'deals get'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'deals view'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L
        case 'deals create'
            echo --output -o --fields --jq --profile --base-url --timeout --name --amount --currency --stage --account-id --contact-id --close-date --set --data
        case 'deals update'
            echo --output -o --fields --jq --profile --base-url --timeout --name --amount --currency --stage --account-id --contact-id --close-date --set --data --concurrency
        case 'deals delete'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'deals stage'
            echo --output -o --fields --jq --profile --base-url --timeout --set --data --stage --concurrency
        case 'sequences'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'sequences list'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset --search --status
        case 'sequences get'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'sequences create'
            echo --output -o --fields --jq --profile --base-url --timeout --name --description --status --steps --description-file --set --data
        case 'sequences update'
            echo --output -o --fields --jq --profile --base-url --timeout --name --description --status --steps --description-file --set --data --concurrency
        case 'sequences delete'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'sequences enroll'
            echo --output -o --fields --jq --profile --base-url --timeout --set --data --file
        case 'sequences contacts'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset
        case 'tasks'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'tasks list'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset --search --status --priority --contact-id --deal-id --due --sort
        case 'tasks get'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'tasks create'
            echo --output -o --fields --jq --profile --base-url --timeout --title --description --status --priority --due --contact-id --deal-id --description-file --set --data
        case 'tasks update'
            echo --output -o --fields --jq --profile --base-url --timeout --title --description --status --priority --due --contact-id --deal-id --description-file --set --data --concurrency
        case 'tasks delete'
            echo --output -o --fields --jq --profile --base-url --timeout --concurrency
        case 'tasks complete'
            echo --output -o --fields --jq --profile --base-url --timeout --set --data --concurrency
        case 'pipeline'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'pipeline stages'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'pipeline deals'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'search'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset --types
        case 'analytics'
            echo --output -o --fields --jq --profile --base-url --timeout --period
        case 'ai'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'ai suggestions'
            echo --output -o --fields --jq --profile --base-url --timeout --limit -L --offset --type --contact-id --deal-id
        case 'ai accept'
            echo --output -o --fields --jq --profile --base-url --timeout --set --data --concurrency
        case 'ai trigger'
            echo --output -o --fields --jq --profile --base-url --timeout --set --data
        case 'auth'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'auth login'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'auth status'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'auth logout'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'profiles'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'profiles list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'profiles use'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'profiles remove'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'config'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'config get'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'config set'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'config unset'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'config list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'sandbox'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'sandbox init'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'sandbox serve'
            echo --output -o --fields --jq --profile --base-url --timeout --port
        case 'sandbox reset'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'sandbox status'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'api'
            echo --output -o --fields --jq --profile --base-url --timeout --method -X --field -f --typed-field -F --header -H --input
        case 'mcp'
            echo --output -o --fields --jq --profile --base-url --timeout --toolsets --tools --exclude-tools
        case 'completion'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'watch'
            echo --output -o --fields --jq --profile --base-url --timeout --interval --state --max-failures --exec --exec-timeout --forward-to --secret
        case 'sync'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'query'
            echo --output -o --fields --jq --profile --base-url --timeout --file
        case 'help'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help environment'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help exit-codes'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help output'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help flags'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help status'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts get'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts view'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts create'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts update'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts delete'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts notes'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts notes list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts notes add'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts tasks'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts tasks add'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts enroll'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts import'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help contacts export'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help accounts'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help accounts list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help accounts get'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help accounts view'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help accounts create'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help accounts update'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help accounts delete'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals get'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals view'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals create'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals update'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals delete'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help deals stage'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences get'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences create'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences update'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences delete'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences enroll'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sequences contacts'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help tasks'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help tasks list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help tasks get'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help tasks create'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help tasks update'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help tasks delete'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help tasks complete'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help pipeline'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help pipeline stages'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help pipeline deals'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help search'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help analytics'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help ai'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help ai suggestions'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help ai accept'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help ai trigger'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help auth'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help auth login'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help auth status'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help auth logout'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help profiles'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help profiles list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help profiles use'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help profiles remove'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help config'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help config get'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help config set'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help config unset'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help config list'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sandbox'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sandbox init'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sandbox serve'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sandbox reset'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sandbox status'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help api'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help mcp'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help completion'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help watch'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help sync'
            echo --output -o --fields --jq --profile --base-url --timeout
        case 'help query'
            echo --output -o --fields --jq --profile --base-url --timeout
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
complete -c crm -l json -d 'machine output: JSON (same as -o json)'
complete -c crm -s o -l output -x -a 'table json ndjson csv tsv' -d 'output format'
complete -c crm -l fields -x -d 'comma-separated fields to keep, in this order (an unknown name is exit 2); --json a,b is --json --fields a,b'
complete -c crm -l jq -x -d 'filter the JSON output with a jq expression (jq 1.8); implies --json; a string result prints as its text; with -o ndjson each record is filtered as it arrives'
complete -c crm -l escape-formulas -d 'csv: prefix \' to cells that begin with = + - @ (or a tab or CR), which a spreadsheet would run as formulas (contacts import --unescape-formulas reads them back)'
complete -c crm -s q -l quiet -d 'print only ids (list, create; a bulk command: the ids that succeeded); nothing for other commands'
complete -c crm -l profile -x -a '(__crm_dynamic profiles)' -d 'stored workspace profile to use (env CRM_PROFILE)'
complete -c crm -l base-url -x -d 'service base URL, overrides the profile (env CRM_BASE_URL)'
complete -c crm -l no-input -d 'never prompt; fail naming the missing flags (env CRM_NO_INPUT=1)'
complete -c crm -l no-color -d 'no colour (env NO_COLOR; FORCE_COLOR forces it)'
complete -c crm -l debug -d 'trace requests and responses on stderr, key redacted (env CRM_DEBUG=1)'
complete -c crm -l dry-run -d 'print the requests that would be sent, and send nothing but the reads they depend on'
complete -c crm -l timeout -x -d 'per-request timeout in seconds (default 30, at most 86400)'
complete -c crm -l wait -d 'wait out a long Retry-After instead of exiting 5'
complete -c crm -l insecure -d 'allow sending the API key over plain HTTP to a non-local host'

# crm
complete -c crm -n '__crm_at \'\'' -a status -d 'The day at a glance: tasks overdue and due, deals closing, suggestions, new contacts'
complete -c crm -n '__crm_at \'\'' -a contacts -d 'Contacts, their notes, tasks and sequence enrolment'
complete -c crm -n '__crm_at \'\'' -a accounts -d 'Accounts (companies)'
complete -c crm -n '__crm_at \'\'' -a deals -d 'Deals and their stage moves'
complete -c crm -n '__crm_at \'\'' -a sequences -d 'Sequences and bulk enrolment'
complete -c crm -n '__crm_at \'\'' -a tasks -d 'Tasks'
complete -c crm -n '__crm_at \'\'' -a pipeline -d 'Pipeline stages and per-stage totals'
complete -c crm -n '__crm_at \'\'' -a search -d 'Search contacts, deals, accounts and tasks'
complete -c crm -n '__crm_at \'\'' -a analytics -d 'Rollups of contacts, deals, emails and tasks'
complete -c crm -n '__crm_at \'\'' -a ai -d 'AI suggestions and scoring'
complete -c crm -n '__crm_at \'\'' -a auth -d 'Log in to a workspace, check or remove the stored key'
complete -c crm -n '__crm_at \'\'' -a profiles -d 'Stored workspaces: list, switch, remove'
complete -c crm -n '__crm_at \'\'' -a config -d 'Settings of the active profile'
complete -c crm -n '__crm_at \'\'' -a sandbox -d 'The local sandbox workspace (embedded default and test server)'
complete -c crm -n '__crm_at \'\'' -a api -d 'Call any endpoint: crm api [METHOD] PATH (auth, retries and errors as for every command)'
complete -c crm -n '__crm_at \'\'' -a mcp -d 'Serve every endpoint as a tool for AI agents (Model Context Protocol on stdio)'
complete -c crm -n '__crm_at \'\'' -a completion -d 'Print the shell completion script for bash, zsh or fish'
complete -c crm -n '__crm_at \'\'' -a watch -d 'Follow a list: emit each new record (or, with --changes, each change) once, oldest first (run a command, forward it to a URL, score it)'
complete -c crm -n '__crm_at \'\'' -a sync -d 'Keep a local replica of the workspace (SQLite) for crm query and crm watch --changes'
complete -c crm -n '__crm_at \'\'' -a query -d 'Run read-only SQL on the local replica (crm sync keeps it): joins, GROUP BY, offline'
complete -c crm -n '__crm_at \'\'' -a help -d 'Show help for a command, or a topic'
complete -c crm -n '__crm_at \'\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_at \'\'' -s V -l version -d 'print the version'

# crm status
complete -c crm -n '__crm_at \'status\'' -s L -l limit -x -d 'records shown in each part (default 5); each says how many more there are'
complete -c crm -n '__crm_at \'status\'' -s h -l help -d 'show help'

# crm contacts
complete -c crm -n '__crm_at \'contacts\'' -a list -d 'List contacts, newest first'
complete -c crm -n '__crm_at \'contacts\'' -a ls -d 'List contacts, newest first'
complete -c crm -n '__crm_at \'contacts\'' -a get -d 'Show one contact (or several)'
complete -c crm -n '__crm_at \'contacts\'' -a view -d 'Show a contact whole: notes, open tasks, sequences, account and its open deals, latest suggestion'
complete -c crm -n '__crm_at \'contacts\'' -a create -d 'Create a contact'
complete -c crm -n '__crm_at \'contacts\'' -a new -d 'Create a contact'
complete -c crm -n '__crm_at \'contacts\'' -a update -d 'Change fields of a contact (or several)'
complete -c crm -n '__crm_at \'contacts\'' -a edit -d 'Change fields of a contact (or several)'
complete -c crm -n '__crm_at \'contacts\'' -a delete -d 'Delete a contact (or several)'
complete -c crm -n '__crm_at \'contacts\'' -a rm -d 'Delete a contact (or several)'
complete -c crm -n '__crm_at \'contacts\'' -a notes -d 'A contact\'s notes'
complete -c crm -n '__crm_at \'contacts\'' -a tasks -d 'A contact\'s tasks'
complete -c crm -n '__crm_at \'contacts\'' -a enroll -d 'Enrol a contact (or several) into a sequence'
complete -c crm -n '__crm_at \'contacts\'' -a import -d 'Create contacts from a CSV, NDJSON or JSON file: every row checked first, sent concurrently, resumable'
complete -c crm -n '__crm_at \'contacts\'' -a export -d 'Write every contact as CSV, NDJSON or JSON, page by page in constant memory'
complete -c crm -n '__crm_at \'contacts\'' -s h -l help -d 'show help'

# crm contacts list
complete -c crm -n '__crm_at \'contacts list\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'contacts list\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'contacts list\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'contacts list\'' -l search -x -d 'text to match in name, email and company'
complete -c crm -n '__crm_at \'contacts list\'' -l status -x -a 'lead prospect customer churned' -d 'only contacts with this status'
complete -c crm -n '__crm_at \'contacts list\'' -l list-id -x -d 'only contacts in this list'
complete -c crm -n '__crm_at \'contacts list\'' -s h -l help -d 'show help'

# crm contacts get
complete -c crm -n '__crm_at \'contacts get\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'contacts get\'' -s h -l help -d 'show help'

# crm contacts view
complete -c crm -n '__crm_at \'contacts view\'' -s L -l limit -x -d 'records shown in each part (default 10); each says how many more there are'
complete -c crm -n '__crm_at \'contacts view\'' -s h -l help -d 'show help'

# crm contacts create
complete -c crm -n '__crm_at \'contacts create\'' -l name -x -d 'full name'
complete -c crm -n '__crm_at \'contacts create\'' -l email -x -d 'email address'
complete -c crm -n '__crm_at \'contacts create\'' -l company -x -d 'company name'
complete -c crm -n '__crm_at \'contacts create\'' -l phone -x -d 'phone number'
complete -c crm -n '__crm_at \'contacts create\'' -l title -x -d 'job title'
complete -c crm -n '__crm_at \'contacts create\'' -l status -x -a 'lead prospect customer churned' -d 'contact status'
complete -c crm -n '__crm_at \'contacts create\'' -l account-id -x -d 'the contact\'s account id or name'
complete -c crm -n '__crm_at \'contacts create\'' -l list-ids -x -d 'ids of the lists the contact is in'
complete -c crm -n '__crm_at \'contacts create\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'contacts create\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'contacts create\'' -l score -d 'score the new contact at once (POST /ai/trigger)'
complete -c crm -n '__crm_at \'contacts create\'' -s h -l help -d 'show help'

# crm contacts update
complete -c crm -n '__crm_at \'contacts update\'' -l name -x -d 'full name'
complete -c crm -n '__crm_at \'contacts update\'' -l email -x -d 'email address'
complete -c crm -n '__crm_at \'contacts update\'' -l company -x -d 'company name'
complete -c crm -n '__crm_at \'contacts update\'' -l phone -x -d 'phone number'
complete -c crm -n '__crm_at \'contacts update\'' -l title -x -d 'job title'
complete -c crm -n '__crm_at \'contacts update\'' -l status -x -a 'lead prospect customer churned' -d 'contact status'
complete -c crm -n '__crm_at \'contacts update\'' -l account-id -x -d 'the contact\'s account id or name'
complete -c crm -n '__crm_at \'contacts update\'' -l list-ids -x -d 'ids of the lists the contact is in'
complete -c crm -n '__crm_at \'contacts update\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'contacts update\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'contacts update\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'contacts update\'' -s h -l help -d 'show help'

# crm contacts delete
complete -c crm -n '__crm_at \'contacts delete\'' -s y -l yes -d 'do not ask for confirmation'
complete -c crm -n '__crm_at \'contacts delete\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'contacts delete\'' -s h -l help -d 'show help'

# crm contacts notes
complete -c crm -n '__crm_at \'contacts notes\'' -a list -d 'List a contact\'s notes'
complete -c crm -n '__crm_at \'contacts notes\'' -a ls -d 'List a contact\'s notes'
complete -c crm -n '__crm_at \'contacts notes\'' -a add -d 'Add a note to a contact'
complete -c crm -n '__crm_at \'contacts notes\'' -s h -l help -d 'show help'

# crm contacts notes list
complete -c crm -n '__crm_at \'contacts notes list\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'contacts notes list\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'contacts notes list\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'contacts notes list\'' -s h -l help -d 'show help'

# crm contacts notes add
complete -c crm -n '__crm_at \'contacts notes add\'' -l body -x -d 'the note text'
complete -c crm -n '__crm_at \'contacts notes add\'' -l body-file -r -F -d 'the note text from a file, or - for stdin (in place of --body; at a terminal, with neither, $VISUAL or $EDITOR opens)'
complete -c crm -n '__crm_at \'contacts notes add\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'contacts notes add\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'contacts notes add\'' -s h -l help -d 'show help'

# crm contacts tasks
complete -c crm -n '__crm_at \'contacts tasks\'' -a add -d 'Create a task for a contact'
complete -c crm -n '__crm_at \'contacts tasks\'' -s h -l help -d 'show help'

# crm contacts tasks add
complete -c crm -n '__crm_at \'contacts tasks add\'' -l title -x -d 'task title'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l description -x -d 'longer description'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l status -x -a 'open completed' -d 'task status'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l priority -x -a 'low normal high' -d 'priority'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l due -x -d 'due date: YYYY-MM-DD, today, tomorrow, +Nd or +Nw'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l deal-id -x -d 'deal id'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l description-file -r -F -d 'longer description from a file, or - for stdin (in place of --description)'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'contacts tasks add\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'contacts tasks add\'' -s h -l help -d 'show help'

# crm contacts enroll
complete -c crm -n '__crm_at \'contacts enroll\'' -l sequence -x -a '(__crm_dynamic sequences)' -d 'sequence id'
complete -c crm -n '__crm_at \'contacts enroll\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'contacts enroll\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'contacts enroll\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'contacts enroll\'' -s h -l help -d 'show help'

# crm contacts import
complete -c crm -n '__crm_at \'contacts import\'' -l format -x -a 'csv ndjson json' -d 'input format (default: from the file name, else from its first character)'
complete -c crm -n '__crm_at \'contacts import\'' -l encoding -x -a 'utf8 latin1 cp1252' -d 'the file\'s encoding when it is not UTF-8: cp1252 (a spreadsheet\'s "CSV" saved on Windows) or latin1'
complete -c crm -n '__crm_at \'contacts import\'' -l unescape-formulas -d 'a CSV written with --escape-formulas: take off the \' it put before = + - @ (the cells read back exactly)'
complete -c crm -n '__crm_at \'contacts import\'' -l map -x -d 'read column COLUMN into contact field FIELD: COLUMN=FIELD (repeatable)'
complete -c crm -n '__crm_at \'contacts import\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'contacts import\'' -l upsert -d 'update the contact that has the row\'s email (or an earlier row\'s) instead of creating another'
complete -c crm -n '__crm_at \'contacts import\'' -l score -d 'score each created contact (POST /ai/trigger, within its rate limit)'
complete -c crm -n '__crm_at \'contacts import\'' -l errors -r -F -d 'write invalid and failed rows to this CSV file, with their line number and the reason'
complete -c crm -n '__crm_at \'contacts import\'' -l checkpoint -r -F -d 'where progress is recorded (default: beside the input, FILE.crm-checkpoint)'
complete -c crm -n '__crm_at \'contacts import\'' -l resume -d 'continue from the checkpoint: retry what did not succeed, never create a row twice'
complete -c crm -n '__crm_at \'contacts import\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'contacts import\' 0' -F -d 'file'

# crm contacts export
complete -c crm -n '__crm_at \'contacts export\'' -l format -x -a 'csv ndjson json' -d 'output format (default csv; the same as -o)'
complete -c crm -n '__crm_at \'contacts export\'' -l search -x -d 'text to match in name, email and company'
complete -c crm -n '__crm_at \'contacts export\'' -l status -x -a 'lead prospect customer churned' -d 'only contacts with this status'
complete -c crm -n '__crm_at \'contacts export\'' -l list-id -x -d 'only contacts in this list'
complete -c crm -n '__crm_at \'contacts export\'' -s h -l help -d 'show help'

# crm accounts
complete -c crm -n '__crm_at \'accounts\'' -a list -d 'List accounts, newest first'
complete -c crm -n '__crm_at \'accounts\'' -a ls -d 'List accounts, newest first'
complete -c crm -n '__crm_at \'accounts\'' -a get -d 'Show one account (or several)'
complete -c crm -n '__crm_at \'accounts\'' -a view -d 'Show an account whole: its contacts and its deals'
complete -c crm -n '__crm_at \'accounts\'' -a create -d 'Create an account'
complete -c crm -n '__crm_at \'accounts\'' -a new -d 'Create an account'
complete -c crm -n '__crm_at \'accounts\'' -a update -d 'Change fields of an account (or several)'
complete -c crm -n '__crm_at \'accounts\'' -a edit -d 'Change fields of an account (or several)'
complete -c crm -n '__crm_at \'accounts\'' -a delete -d 'Delete an account (or several)'
complete -c crm -n '__crm_at \'accounts\'' -a rm -d 'Delete an account (or several)'
complete -c crm -n '__crm_at \'accounts\'' -s h -l help -d 'show help'

# crm accounts list
complete -c crm -n '__crm_at \'accounts list\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'accounts list\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'accounts list\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'accounts list\'' -l search -x -d 'text to match in name and domain'
complete -c crm -n '__crm_at \'accounts list\'' -l industry -x -d 'only accounts in this industry'
complete -c crm -n '__crm_at \'accounts list\'' -s h -l help -d 'show help'

# crm accounts get
complete -c crm -n '__crm_at \'accounts get\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'accounts get\'' -s h -l help -d 'show help'

# crm accounts view
complete -c crm -n '__crm_at \'accounts view\'' -s L -l limit -x -d 'records shown in each part (default 10); each says how many more there are'
complete -c crm -n '__crm_at \'accounts view\'' -s h -l help -d 'show help'

# crm accounts create
complete -c crm -n '__crm_at \'accounts create\'' -l name -x -d 'account (company) name'
complete -c crm -n '__crm_at \'accounts create\'' -l domain -x -d 'web domain, e.g. example.com'
complete -c crm -n '__crm_at \'accounts create\'' -l industry -x -d 'industry'
complete -c crm -n '__crm_at \'accounts create\'' -l employees -x -d 'number of employees'
complete -c crm -n '__crm_at \'accounts create\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'accounts create\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'accounts create\'' -s h -l help -d 'show help'

# crm accounts update
complete -c crm -n '__crm_at \'accounts update\'' -l name -x -d 'account (company) name'
complete -c crm -n '__crm_at \'accounts update\'' -l domain -x -d 'web domain, e.g. example.com'
complete -c crm -n '__crm_at \'accounts update\'' -l industry -x -d 'industry'
complete -c crm -n '__crm_at \'accounts update\'' -l employees -x -d 'number of employees'
complete -c crm -n '__crm_at \'accounts update\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'accounts update\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'accounts update\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'accounts update\'' -s h -l help -d 'show help'

# crm accounts delete
complete -c crm -n '__crm_at \'accounts delete\'' -s y -l yes -d 'do not ask for confirmation'
complete -c crm -n '__crm_at \'accounts delete\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'accounts delete\'' -s h -l help -d 'show help'

# crm deals
complete -c crm -n '__crm_at \'deals\'' -a list -d 'List deals, newest first'
complete -c crm -n '__crm_at \'deals\'' -a ls -d 'List deals, newest first'
complete -c crm -n '__crm_at \'deals\'' -a get -d 'Show one deal (or several)'
complete -c crm -n '__crm_at \'deals\'' -a view -d 'Show a deal whole: its stage history, account, contact and open tasks'
complete -c crm -n '__crm_at \'deals\'' -a create -d 'Create a deal'
complete -c crm -n '__crm_at \'deals\'' -a new -d 'Create a deal'
complete -c crm -n '__crm_at \'deals\'' -a update -d 'Change fields of a deal (or several)'
complete -c crm -n '__crm_at \'deals\'' -a edit -d 'Change fields of a deal (or several)'
complete -c crm -n '__crm_at \'deals\'' -a delete -d 'Delete a deal (or several)'
complete -c crm -n '__crm_at \'deals\'' -a rm -d 'Delete a deal (or several)'
complete -c crm -n '__crm_at \'deals\'' -a stage -d 'Move a deal to another pipeline stage (logs an activity)'
complete -c crm -n '__crm_at \'deals\'' -s h -l help -d 'show help'

# crm deals list
complete -c crm -n '__crm_at \'deals list\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'deals list\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'deals list\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'deals list\'' -l search -x -d 'text to match in the deal name'
complete -c crm -n '__crm_at \'deals list\'' -l stage -x -a '(__crm_dynamic stages)' -d 'only deals in this stage'
complete -c crm -n '__crm_at \'deals list\'' -l status -x -a 'open won lost' -d 'only open, won or lost deals'
complete -c crm -n '__crm_at \'deals list\'' -l account-id -x -d 'only deals of this account (id or name)'
complete -c crm -n '__crm_at \'deals list\'' -l contact-id -x -d 'only deals of this contact (id or email)'
complete -c crm -n '__crm_at \'deals list\'' -s h -l help -d 'show help'

# crm deals get
complete -c crm -n '__crm_at \'deals get\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'deals get\'' -s h -l help -d 'show help'

# crm deals view
complete -c crm -n '__crm_at \'deals view\'' -s L -l limit -x -d 'records shown in each part (default 10); each says how many more there are'
complete -c crm -n '__crm_at \'deals view\'' -s h -l help -d 'show help'

# crm deals create
complete -c crm -n '__crm_at \'deals create\'' -l name -x -d 'deal name'
complete -c crm -n '__crm_at \'deals create\'' -l amount -x -d 'deal value'
complete -c crm -n '__crm_at \'deals create\'' -l currency -x -d 'ISO currency code, e.g. USD'
complete -c crm -n '__crm_at \'deals create\'' -l stage -x -a '(__crm_dynamic stages)' -d 'pipeline stage (id or name)'
complete -c crm -n '__crm_at \'deals create\'' -l account-id -x -d 'account id or name'
complete -c crm -n '__crm_at \'deals create\'' -l contact-id -x -d 'primary contact id or email'
complete -c crm -n '__crm_at \'deals create\'' -l close-date -x -d 'expected close date'
complete -c crm -n '__crm_at \'deals create\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'deals create\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'deals create\'' -s h -l help -d 'show help'

# crm deals update
complete -c crm -n '__crm_at \'deals update\'' -l name -x -d 'deal name'
complete -c crm -n '__crm_at \'deals update\'' -l amount -x -d 'deal value'
complete -c crm -n '__crm_at \'deals update\'' -l currency -x -d 'ISO currency code, e.g. USD'
complete -c crm -n '__crm_at \'deals update\'' -l stage -x -a '(__crm_dynamic stages)' -d 'pipeline stage (id or name)'
complete -c crm -n '__crm_at \'deals update\'' -l account-id -x -d 'account id or name'
complete -c crm -n '__crm_at \'deals update\'' -l contact-id -x -d 'primary contact id or email'
complete -c crm -n '__crm_at \'deals update\'' -l close-date -x -d 'expected close date'
complete -c crm -n '__crm_at \'deals update\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'deals update\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'deals update\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'deals update\'' -s h -l help -d 'show help'

# crm deals delete
complete -c crm -n '__crm_at \'deals delete\'' -s y -l yes -d 'do not ask for confirmation'
complete -c crm -n '__crm_at \'deals delete\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'deals delete\'' -s h -l help -d 'show help'

# crm deals stage
complete -c crm -n '__crm_at \'deals stage\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'deals stage\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'deals stage\'' -l stage -x -a '(__crm_dynamic stages)' -d 'the new stage (id or name); none at a terminal: pick one'
complete -c crm -n '__crm_at \'deals stage\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'deals stage\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'deals stage\' 0 +' -a '(__crm_dynamic stages)' -d 'id'

# crm sequences
complete -c crm -n '__crm_at \'sequences\'' -a list -d 'List sequences, newest first'
complete -c crm -n '__crm_at \'sequences\'' -a ls -d 'List sequences, newest first'
complete -c crm -n '__crm_at \'sequences\'' -a get -d 'Show one sequence (or several)'
complete -c crm -n '__crm_at \'sequences\'' -a view -d 'Show one sequence (or several)'
complete -c crm -n '__crm_at \'sequences\'' -a create -d 'Create a sequence'
complete -c crm -n '__crm_at \'sequences\'' -a new -d 'Create a sequence'
complete -c crm -n '__crm_at \'sequences\'' -a update -d 'Change fields of a sequence (or several)'
complete -c crm -n '__crm_at \'sequences\'' -a edit -d 'Change fields of a sequence (or several)'
complete -c crm -n '__crm_at \'sequences\'' -a delete -d 'Delete a sequence (or several)'
complete -c crm -n '__crm_at \'sequences\'' -a rm -d 'Delete a sequence (or several)'
complete -c crm -n '__crm_at \'sequences\'' -a enroll -d 'Enrol contacts into a sequence (ids from arguments, --file, or stdin)'
complete -c crm -n '__crm_at \'sequences\'' -a contacts -d 'List the contacts enrolled in a sequence'
complete -c crm -n '__crm_at \'sequences\'' -s h -l help -d 'show help'

# crm sequences list
complete -c crm -n '__crm_at \'sequences list\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'sequences list\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'sequences list\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'sequences list\'' -l search -x -d 'text to match in name and description'
complete -c crm -n '__crm_at \'sequences list\'' -l status -x -a 'active paused archived' -d 'only sequences with this status'
complete -c crm -n '__crm_at \'sequences list\'' -s h -l help -d 'show help'

# crm sequences get
complete -c crm -n '__crm_at \'sequences get\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'sequences get\'' -s h -l help -d 'show help'

# crm sequences create
complete -c crm -n '__crm_at \'sequences create\'' -l name -x -d 'sequence name'
complete -c crm -n '__crm_at \'sequences create\'' -l description -x -d 'what the sequence is for'
complete -c crm -n '__crm_at \'sequences create\'' -l status -x -a 'active paused archived' -d 'sequence status'
complete -c crm -n '__crm_at \'sequences create\'' -l steps -x -d 'steps: [{day, channel (email, call, task), subject}]'
complete -c crm -n '__crm_at \'sequences create\'' -l description-file -r -F -d 'what the sequence is for from a file, or - for stdin (in place of --description)'
complete -c crm -n '__crm_at \'sequences create\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'sequences create\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'sequences create\'' -s h -l help -d 'show help'

# crm sequences update
complete -c crm -n '__crm_at \'sequences update\'' -l name -x -d 'sequence name'
complete -c crm -n '__crm_at \'sequences update\'' -l description -x -d 'what the sequence is for'
complete -c crm -n '__crm_at \'sequences update\'' -l status -x -a 'active paused archived' -d 'sequence status'
complete -c crm -n '__crm_at \'sequences update\'' -l steps -x -d 'steps: [{day, channel (email, call, task), subject}]'
complete -c crm -n '__crm_at \'sequences update\'' -l description-file -r -F -d 'what the sequence is for from a file, or - for stdin (in place of --description)'
complete -c crm -n '__crm_at \'sequences update\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'sequences update\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'sequences update\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'sequences update\'' -s h -l help -d 'show help'

# crm sequences delete
complete -c crm -n '__crm_at \'sequences delete\'' -s y -l yes -d 'do not ask for confirmation'
complete -c crm -n '__crm_at \'sequences delete\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'sequences delete\'' -s h -l help -d 'show help'

# crm sequences enroll
complete -c crm -n '__crm_at \'sequences enroll\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'sequences enroll\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'sequences enroll\'' -l file -r -F -d 'read contact ids from a file (one a line, or a JSON array)'
complete -c crm -n '__crm_at \'sequences enroll\'' -s h -l help -d 'show help'

# crm sequences contacts
complete -c crm -n '__crm_at \'sequences contacts\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'sequences contacts\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'sequences contacts\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'sequences contacts\'' -s h -l help -d 'show help'

# crm tasks
complete -c crm -n '__crm_at \'tasks\'' -a list -d 'List tasks, newest first (or by due date)'
complete -c crm -n '__crm_at \'tasks\'' -a ls -d 'List tasks, newest first (or by due date)'
complete -c crm -n '__crm_at \'tasks\'' -a get -d 'Show one task (or several)'
complete -c crm -n '__crm_at \'tasks\'' -a view -d 'Show one task (or several)'
complete -c crm -n '__crm_at \'tasks\'' -a create -d 'Create a task'
complete -c crm -n '__crm_at \'tasks\'' -a new -d 'Create a task'
complete -c crm -n '__crm_at \'tasks\'' -a update -d 'Change fields of a task (or several)'
complete -c crm -n '__crm_at \'tasks\'' -a edit -d 'Change fields of a task (or several)'
complete -c crm -n '__crm_at \'tasks\'' -a delete -d 'Delete a task (or several)'
complete -c crm -n '__crm_at \'tasks\'' -a rm -d 'Delete a task (or several)'
complete -c crm -n '__crm_at \'tasks\'' -a complete -d 'Mark tasks complete'
complete -c crm -n '__crm_at \'tasks\'' -a done -d 'Mark tasks complete'
complete -c crm -n '__crm_at \'tasks\'' -s h -l help -d 'show help'

# crm tasks list
complete -c crm -n '__crm_at \'tasks list\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'tasks list\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'tasks list\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'tasks list\'' -l search -x -d 'text to match in title and description'
complete -c crm -n '__crm_at \'tasks list\'' -l status -x -a 'open completed' -d 'only tasks with this status'
complete -c crm -n '__crm_at \'tasks list\'' -l priority -x -a 'low normal high' -d 'only tasks with this priority'
complete -c crm -n '__crm_at \'tasks list\'' -l contact-id -x -d 'only tasks of this contact (id or email)'
complete -c crm -n '__crm_at \'tasks list\'' -l deal-id -x -d 'only tasks of this deal'
complete -c crm -n '__crm_at \'tasks list\'' -l overdue -d 'only overdue tasks (open, due before today)'
complete -c crm -n '__crm_at \'tasks list\'' -l due -x -d 'only tasks due: overdue, today, week (today and the 6 days after), a date or DATE..DATE (YYYY-MM-DD, today, tomorrow, +Nd or +Nw; either end may be left out); open tasks unless --status says otherwise. The service has no due-date filter: crm reads the list and keeps the tasks due'
complete -c crm -n '__crm_at \'tasks list\'' -l sort -x -a 'due' -d 'due: soonest due first, tasks without a due date last. The service lists newest first only: crm reads every task the filters select, then sorts'
complete -c crm -n '__crm_at \'tasks list\'' -s h -l help -d 'show help'

# crm tasks get
complete -c crm -n '__crm_at \'tasks get\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'tasks get\'' -s h -l help -d 'show help'

# crm tasks create
complete -c crm -n '__crm_at \'tasks create\'' -l title -x -d 'task title'
complete -c crm -n '__crm_at \'tasks create\'' -l description -x -d 'longer description'
complete -c crm -n '__crm_at \'tasks create\'' -l status -x -a 'open completed' -d 'task status'
complete -c crm -n '__crm_at \'tasks create\'' -l priority -x -a 'low normal high' -d 'priority'
complete -c crm -n '__crm_at \'tasks create\'' -l due -x -d 'due date: YYYY-MM-DD, today, tomorrow, +Nd or +Nw'
complete -c crm -n '__crm_at \'tasks create\'' -l contact-id -x -d 'contact id or email'
complete -c crm -n '__crm_at \'tasks create\'' -l deal-id -x -d 'deal id'
complete -c crm -n '__crm_at \'tasks create\'' -l description-file -r -F -d 'longer description from a file, or - for stdin (in place of --description)'
complete -c crm -n '__crm_at \'tasks create\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'tasks create\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'tasks create\'' -s h -l help -d 'show help'

# crm tasks update
complete -c crm -n '__crm_at \'tasks update\'' -l title -x -d 'task title'
complete -c crm -n '__crm_at \'tasks update\'' -l description -x -d 'longer description'
complete -c crm -n '__crm_at \'tasks update\'' -l status -x -a 'open completed' -d 'task status'
complete -c crm -n '__crm_at \'tasks update\'' -l priority -x -a 'low normal high' -d 'priority'
complete -c crm -n '__crm_at \'tasks update\'' -l due -x -d 'due date: YYYY-MM-DD, today, tomorrow, +Nd or +Nw'
complete -c crm -n '__crm_at \'tasks update\'' -l contact-id -x -d 'contact id or email'
complete -c crm -n '__crm_at \'tasks update\'' -l deal-id -x -d 'deal id'
complete -c crm -n '__crm_at \'tasks update\'' -l description-file -r -F -d 'longer description from a file, or - for stdin (in place of --description)'
complete -c crm -n '__crm_at \'tasks update\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'tasks update\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'tasks update\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'tasks update\'' -s h -l help -d 'show help'

# crm tasks delete
complete -c crm -n '__crm_at \'tasks delete\'' -s y -l yes -d 'do not ask for confirmation'
complete -c crm -n '__crm_at \'tasks delete\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'tasks delete\'' -s h -l help -d 'show help'

# crm tasks complete
complete -c crm -n '__crm_at \'tasks complete\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'tasks complete\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'tasks complete\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'tasks complete\'' -s h -l help -d 'show help'

# crm pipeline
complete -c crm -n '__crm_at \'pipeline\'' -a stages -d 'List the pipeline stages'
complete -c crm -n '__crm_at \'pipeline\'' -a deals -d 'Deal count and total value per stage'
complete -c crm -n '__crm_at \'pipeline\'' -s h -l help -d 'show help'

# crm pipeline stages
complete -c crm -n '__crm_at \'pipeline stages\'' -s h -l help -d 'show help'

# crm pipeline deals
complete -c crm -n '__crm_at \'pipeline deals\'' -s h -l help -d 'show help'

# crm search
complete -c crm -n '__crm_at \'search\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'search\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'search\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'search\'' -l types -x -a '(__crm_list contacts deals accounts tasks)' -d 'only these types (default all)'
complete -c crm -n '__crm_at \'search\'' -s h -l help -d 'show help'

# crm analytics
complete -c crm -n '__crm_at \'analytics\'' -l period -x -a '7d 30d 90d' -d 'the window'
complete -c crm -n '__crm_at \'analytics\'' -s h -l help -d 'show help'

# crm ai
complete -c crm -n '__crm_at \'ai\'' -a suggestions -d 'List pending AI suggestions'
complete -c crm -n '__crm_at \'ai\'' -a accept -d 'Accept AI suggestions (no id on a terminal: pick from the pending ones)'
complete -c crm -n '__crm_at \'ai\'' -a trigger -d 'Score a contact now and persist its next best action'
complete -c crm -n '__crm_at \'ai\'' -s h -l help -d 'show help'

# crm ai suggestions
complete -c crm -n '__crm_at \'ai suggestions\'' -s L -l limit -x -d 'at most this many records in all, fetched 50 a request'
complete -c crm -n '__crm_at \'ai suggestions\'' -l offset -x -d 'records to skip'
complete -c crm -n '__crm_at \'ai suggestions\'' -l all -d 'every record, page by page, streamed as it arrives'
complete -c crm -n '__crm_at \'ai suggestions\'' -l type -x -a 'next_best_action follow_up deal_risk' -d 'only suggestions of this kind'
complete -c crm -n '__crm_at \'ai suggestions\'' -l contact-id -x -d 'only suggestions about this contact (id or email)'
complete -c crm -n '__crm_at \'ai suggestions\'' -l deal-id -x -d 'only suggestions about this deal'
complete -c crm -n '__crm_at \'ai suggestions\'' -s h -l help -d 'show help'

# crm ai accept
complete -c crm -n '__crm_at \'ai accept\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'ai accept\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'ai accept\'' -l concurrency -x -d 'requests at a time (default 4)'
complete -c crm -n '__crm_at \'ai accept\'' -s h -l help -d 'show help'

# crm ai trigger
complete -c crm -n '__crm_at \'ai trigger\'' -l set -x -d 'set a body field: key=value (repeatable; JSON values, dotted keys nest)'
complete -c crm -n '__crm_at \'ai trigger\'' -l data -x -d 'request body as JSON, @file, or - for stdin'
complete -c crm -n '__crm_at \'ai trigger\'' -s h -l help -d 'show help'

# crm auth
complete -c crm -n '__crm_at \'auth\'' -a login -d 'Store an API key for a workspace (verified before it is saved)'
complete -c crm -n '__crm_at \'auth\'' -a status -d 'Show the profile, base URL, key (last 4 characters), where each came from, and whether the key works'
complete -c crm -n '__crm_at \'auth\'' -a logout -d 'Remove the profile\'s stored key (and offer to delete its local replica)'
complete -c crm -n '__crm_at \'auth\'' -s h -l help -d 'show help'

# crm auth login
complete -c crm -n '__crm_at \'auth login\'' -l with-key -d 'read the key from stdin instead of prompting'
complete -c crm -n '__crm_at \'auth login\'' -s h -l help -d 'show help'

# crm auth status
complete -c crm -n '__crm_at \'auth status\'' -s h -l help -d 'show help'

# crm auth logout
complete -c crm -n '__crm_at \'auth logout\'' -s h -l help -d 'show help'

# crm profiles
complete -c crm -n '__crm_at \'profiles\'' -a list -d 'List stored profiles'
complete -c crm -n '__crm_at \'profiles\'' -a ls -d 'List stored profiles'
complete -c crm -n '__crm_at \'profiles\'' -a use -d 'Make a profile the active one'
complete -c crm -n '__crm_at \'profiles\'' -a remove -d 'Remove a stored profile and its key (and offer to delete its local replica)'
complete -c crm -n '__crm_at \'profiles\'' -a rm -d 'Remove a stored profile and its key (and offer to delete its local replica)'
complete -c crm -n '__crm_at \'profiles\'' -s h -l help -d 'show help'

# crm profiles list
complete -c crm -n '__crm_at \'profiles list\'' -s h -l help -d 'show help'

# crm profiles use
complete -c crm -n '__crm_at \'profiles use\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'profiles use\' 0' -a '(__crm_dynamic profiles)' -d 'name'

# crm profiles remove
complete -c crm -n '__crm_at \'profiles remove\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'profiles remove\' 0' -a '(__crm_dynamic profiles)' -d 'name'

# crm config
complete -c crm -n '__crm_at \'config\'' -a get -d 'Print one setting of the active profile'
complete -c crm -n '__crm_at \'config\'' -a set -d 'Change one setting of the active profile'
complete -c crm -n '__crm_at \'config\'' -a unset -d 'Remove one setting of the active profile (back to the default)'
complete -c crm -n '__crm_at \'config\'' -a list -d 'Print every setting of the active profile: the value in effect and where it came from'
complete -c crm -n '__crm_at \'config\'' -a ls -d 'Print every setting of the active profile: the value in effect and where it came from'
complete -c crm -n '__crm_at \'config\'' -s h -l help -d 'show help'

# crm config get
complete -c crm -n '__crm_at \'config get\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'config get\' 0' -a 'base_url output timeout api_key' -d 'key'

# crm config set
complete -c crm -n '__crm_at \'config set\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'config set\' 0' -a 'base_url output timeout' -d 'key'

# crm config unset
complete -c crm -n '__crm_at \'config unset\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'config unset\' 0' -a 'base_url output timeout' -d 'key'

# crm config list
complete -c crm -n '__crm_at \'config list\'' -s h -l help -d 'show help'

# crm sandbox
complete -c crm -n '__crm_at \'sandbox\'' -a init -d 'Create the local sandbox database with demo data'
complete -c crm -n '__crm_at \'sandbox\'' -a serve -d 'Serve the sandbox over HTTP on 127.0.0.1 (with the hourly scoring agent)'
complete -c crm -n '__crm_at \'sandbox\'' -a reset -d 'Replace every record of the local sandbox with fresh demo data (the key stays; safe while it is served)'
complete -c crm -n '__crm_at \'sandbox\'' -a status -d 'Show the sandbox database path, record counts and its local API key'
complete -c crm -n '__crm_at \'sandbox\'' -s h -l help -d 'show help'

# crm sandbox init
complete -c crm -n '__crm_at \'sandbox init\'' -l force -d 'start again from fresh demo data if it exists'
complete -c crm -n '__crm_at \'sandbox init\'' -s h -l help -d 'show help'

# crm sandbox serve
complete -c crm -n '__crm_at \'sandbox serve\'' -l port -x -d 'port to listen on (default 4010; 0 picks a free one)'
complete -c crm -n '__crm_at \'sandbox serve\'' -s h -l help -d 'show help'

# crm sandbox reset
complete -c crm -n '__crm_at \'sandbox reset\'' -s y -l yes -d 'do not ask for confirmation'
complete -c crm -n '__crm_at \'sandbox reset\'' -s h -l help -d 'show help'

# crm sandbox status
complete -c crm -n '__crm_at \'sandbox status\'' -s h -l help -d 'show help'

# crm api
complete -c crm -n '__crm_at \'api\'' -s X -l method -x -a 'GET POST PATCH PUT DELETE' -d 'the HTTP method (default GET, or POST with fields or --input)'
complete -c crm -n '__crm_at \'api\'' -s f -l field -x -d 'a string field key=value (query for GET and DELETE, body otherwise); repeatable'
complete -c crm -n '__crm_at \'api\'' -s F -l typed-field -x -d 'a typed field key=value: JSON value, or @file for its text; repeatable'
complete -c crm -n '__crm_at \'api\'' -s H -l header -x -d 'a request header "Name: value" (not X-Service-API-Key: the key is the profile\'s); repeatable'
complete -c crm -n '__crm_at \'api\'' -l input -r -F -d 'request body from a file, or - for stdin'
complete -c crm -n '__crm_at \'api\'' -s i -l include -d 'print the status line and the headers of the answer before its body'
complete -c crm -n '__crm_at \'api\'' -l paginate -d 'walk every page of a list (GET), streamed'
complete -c crm -n '__crm_at \'api\'' -l raw -d 'print the whole envelope, not only its data'
complete -c crm -n '__crm_at \'api\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'api\' 0' -a 'GET POST PATCH PUT DELETE' -d 'method-or-path'

# crm mcp
complete -c crm -n '__crm_at \'mcp\'' -l read-only -d 'leave out every tool that writes (only reads: list, get, search, analytics...; env CRM_READ_ONLY=1)'
complete -c crm -n '__crm_at \'mcp\'' -l toolsets -x -a '(__crm_list contacts accounts deals sequences tasks pipeline search analytics ai)' -d 'only the tools of these groups, comma-separated (env CRM_TOOLSETS)'
complete -c crm -n '__crm_at \'mcp\'' -l tools -x -d 'these tools too (alone: only these), comma-separated'
complete -c crm -n '__crm_at \'mcp\'' -l exclude-tools -x -d 'leave out these tools, comma-separated'
complete -c crm -n '__crm_at \'mcp\'' -s h -l help -d 'show help'

# crm completion
complete -c crm -n '__crm_at \'completion\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'completion\' 0' -a 'bash zsh fish' -d 'shell'

# crm watch
complete -c crm -n '__crm_at \'watch\'' -l interval -x -d 'time between polls: 30s, 5m, 1h (default 60s, at least 1s)'
complete -c crm -n '__crm_at \'watch\'' -l once -d 'poll once and exit (cron; with --state)'
complete -c crm -n '__crm_at \'watch\'' -l since-start -d 'the first poll emits every existing record instead of only setting the baseline'
complete -c crm -n '__crm_at \'watch\'' -l state -r -F -d 'remember what was handled in this file (written atomically), so a restart neither repeats nor misses a record'
complete -c crm -n '__crm_at \'watch\'' -l max-failures -x -d 'exit after this many consecutive failed polls or deliveries (default 10)'
complete -c crm -n '__crm_at \'watch\'' -l exec -x -d 'run this shell command for each new record: the record as JSON on stdin, CRM_RECORD_ID and CRM_RESOURCE set'
complete -c crm -n '__crm_at \'watch\'' -l exec-timeout -x -d 'kill an --exec command still running after this long: a failed delivery, run again at the next poll (default 10m)'
complete -c crm -n '__crm_at \'watch\'' -l forward-to -x -d 'POST each new record as JSON to this URL (event id header, retries; a signature with --secret)'
complete -c crm -n '__crm_at \'watch\'' -l secret -x -d 'sign forwarded records with HMAC-SHA256 in X-CRM-Signature (env CRM_WATCH_SECRET)'
complete -c crm -n '__crm_at \'watch\'' -l score -d 'contacts: score each new contact (POST /ai/trigger, within its rate limit)'
complete -c crm -n '__crm_at \'watch\'' -l changes -d 'emit created, updated (the fields before and after) and deleted events: each poll syncs the resource into the local replica (crm sync) and emits what changed'
complete -c crm -n '__crm_at \'watch\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'watch\' 0' -a 'contacts deals tasks accounts sequences' -d 'resource'

# crm sync
complete -c crm -n '__crm_at \'sync\'' -l new -d 'only the records created since the last sync (each list from its head until a run of records held): a few requests; updates and deletions wait for a full sync'
complete -c crm -n '__crm_at \'sync\'' -l full -d 'read every list whole: new records, updates and deletions (the default)'
complete -c crm -n '__crm_at \'sync\'' -l status -d 'what the replica holds and when each table was synced; sends nothing'
complete -c crm -n '__crm_at \'sync\'' -l forget -d 'delete the profile\'s replica; sends nothing'
complete -c crm -n '__crm_at \'sync\'' -s h -l help -d 'show help'
complete -c crm -n '__crm_argument \'sync\' 0 +' -a 'contacts accounts deals sequences tasks stages enrollments notes' -d 'resource'

# crm query
complete -c crm -n '__crm_at \'query\'' -l file -r -F -d 'read the SQL from this file (- for stdin)'
complete -c crm -n '__crm_at \'query\'' -l fresh -d 'sync first (every table but notes, as `crm sync`)'
complete -c crm -n '__crm_at \'query\'' -l schema -d 'list the tables, views and columns'
complete -c crm -n '__crm_at \'query\'' -s h -l help -d 'show help'

# crm help
complete -c crm -n '__crm_at \'help\'' -a environment -d 'help topic'
complete -c crm -n '__crm_at \'help\'' -a exit-codes -d 'help topic'
complete -c crm -n '__crm_at \'help\'' -a output -d 'help topic'
complete -c crm -n '__crm_at \'help\'' -a flags -d 'help topic'
complete -c crm -n '__crm_at \'help\'' -a status -d 'The day at a glance: tasks overdue and due, deals closing, suggestions, new contacts'
complete -c crm -n '__crm_at \'help\'' -a contacts -d 'Contacts, their notes, tasks and sequence enrolment'
complete -c crm -n '__crm_at \'help\'' -a accounts -d 'Accounts (companies)'
complete -c crm -n '__crm_at \'help\'' -a deals -d 'Deals and their stage moves'
complete -c crm -n '__crm_at \'help\'' -a sequences -d 'Sequences and bulk enrolment'
complete -c crm -n '__crm_at \'help\'' -a tasks -d 'Tasks'
complete -c crm -n '__crm_at \'help\'' -a pipeline -d 'Pipeline stages and per-stage totals'
complete -c crm -n '__crm_at \'help\'' -a search -d 'Search contacts, deals, accounts and tasks'
complete -c crm -n '__crm_at \'help\'' -a analytics -d 'Rollups of contacts, deals, emails and tasks'
complete -c crm -n '__crm_at \'help\'' -a ai -d 'AI suggestions and scoring'
complete -c crm -n '__crm_at \'help\'' -a auth -d 'Log in to a workspace, check or remove the stored key'
complete -c crm -n '__crm_at \'help\'' -a profiles -d 'Stored workspaces: list, switch, remove'
complete -c crm -n '__crm_at \'help\'' -a config -d 'Settings of the active profile'
complete -c crm -n '__crm_at \'help\'' -a sandbox -d 'The local sandbox workspace (embedded default and test server)'
complete -c crm -n '__crm_at \'help\'' -a api -d 'Call any endpoint: crm api [METHOD] PATH (auth, retries and errors as for every command)'
complete -c crm -n '__crm_at \'help\'' -a mcp -d 'Serve every endpoint as a tool for AI agents (Model Context Protocol on stdio)'
complete -c crm -n '__crm_at \'help\'' -a completion -d 'Print the shell completion script for bash, zsh or fish'
complete -c crm -n '__crm_at \'help\'' -a watch -d 'Follow a list: emit each new record (or, with --changes, each change) once, oldest first (run a command, forward it to a URL, score it)'
complete -c crm -n '__crm_at \'help\'' -a sync -d 'Keep a local replica of the workspace (SQLite) for crm query and crm watch --changes'
complete -c crm -n '__crm_at \'help\'' -a query -d 'Run read-only SQL on the local replica (crm sync keeps it): joins, GROUP BY, offline'
complete -c crm -n '__crm_at \'help\'' -s h -l help -d 'show help'

# crm help environment
complete -c crm -n '__crm_at \'help environment\'' -s h -l help -d 'show help'

# crm help exit-codes
complete -c crm -n '__crm_at \'help exit-codes\'' -s h -l help -d 'show help'

# crm help output
complete -c crm -n '__crm_at \'help output\'' -s h -l help -d 'show help'

# crm help flags
complete -c crm -n '__crm_at \'help flags\'' -s h -l help -d 'show help'

# crm help status
complete -c crm -n '__crm_at \'help status\'' -s h -l help -d 'show help'

# crm help contacts
complete -c crm -n '__crm_at \'help contacts\'' -a list -d 'List contacts, newest first'
complete -c crm -n '__crm_at \'help contacts\'' -a ls -d 'List contacts, newest first'
complete -c crm -n '__crm_at \'help contacts\'' -a get -d 'Show one contact (or several)'
complete -c crm -n '__crm_at \'help contacts\'' -a view -d 'Show a contact whole: notes, open tasks, sequences, account and its open deals, latest suggestion'
complete -c crm -n '__crm_at \'help contacts\'' -a create -d 'Create a contact'
complete -c crm -n '__crm_at \'help contacts\'' -a new -d 'Create a contact'
complete -c crm -n '__crm_at \'help contacts\'' -a update -d 'Change fields of a contact (or several)'
complete -c crm -n '__crm_at \'help contacts\'' -a edit -d 'Change fields of a contact (or several)'
complete -c crm -n '__crm_at \'help contacts\'' -a delete -d 'Delete a contact (or several)'
complete -c crm -n '__crm_at \'help contacts\'' -a rm -d 'Delete a contact (or several)'
complete -c crm -n '__crm_at \'help contacts\'' -a notes -d 'A contact\'s notes'
complete -c crm -n '__crm_at \'help contacts\'' -a tasks -d 'A contact\'s tasks'
complete -c crm -n '__crm_at \'help contacts\'' -a enroll -d 'Enrol a contact (or several) into a sequence'
complete -c crm -n '__crm_at \'help contacts\'' -a import -d 'Create contacts from a CSV, NDJSON or JSON file: every row checked first, sent concurrently, resumable'
complete -c crm -n '__crm_at \'help contacts\'' -a export -d 'Write every contact as CSV, NDJSON or JSON, page by page in constant memory'
complete -c crm -n '__crm_at \'help contacts\'' -s h -l help -d 'show help'

# crm help contacts list
complete -c crm -n '__crm_at \'help contacts list\'' -s h -l help -d 'show help'

# crm help contacts get
complete -c crm -n '__crm_at \'help contacts get\'' -s h -l help -d 'show help'

# crm help contacts view
complete -c crm -n '__crm_at \'help contacts view\'' -s h -l help -d 'show help'

# crm help contacts create
complete -c crm -n '__crm_at \'help contacts create\'' -s h -l help -d 'show help'

# crm help contacts update
complete -c crm -n '__crm_at \'help contacts update\'' -s h -l help -d 'show help'

# crm help contacts delete
complete -c crm -n '__crm_at \'help contacts delete\'' -s h -l help -d 'show help'

# crm help contacts notes
complete -c crm -n '__crm_at \'help contacts notes\'' -a list -d 'List a contact\'s notes'
complete -c crm -n '__crm_at \'help contacts notes\'' -a ls -d 'List a contact\'s notes'
complete -c crm -n '__crm_at \'help contacts notes\'' -a add -d 'Add a note to a contact'
complete -c crm -n '__crm_at \'help contacts notes\'' -s h -l help -d 'show help'

# crm help contacts notes list
complete -c crm -n '__crm_at \'help contacts notes list\'' -s h -l help -d 'show help'

# crm help contacts notes add
complete -c crm -n '__crm_at \'help contacts notes add\'' -s h -l help -d 'show help'

# crm help contacts tasks
complete -c crm -n '__crm_at \'help contacts tasks\'' -a add -d 'Create a task for a contact'
complete -c crm -n '__crm_at \'help contacts tasks\'' -s h -l help -d 'show help'

# crm help contacts tasks add
complete -c crm -n '__crm_at \'help contacts tasks add\'' -s h -l help -d 'show help'

# crm help contacts enroll
complete -c crm -n '__crm_at \'help contacts enroll\'' -s h -l help -d 'show help'

# crm help contacts import
complete -c crm -n '__crm_at \'help contacts import\'' -s h -l help -d 'show help'

# crm help contacts export
complete -c crm -n '__crm_at \'help contacts export\'' -s h -l help -d 'show help'

# crm help accounts
complete -c crm -n '__crm_at \'help accounts\'' -a list -d 'List accounts, newest first'
complete -c crm -n '__crm_at \'help accounts\'' -a ls -d 'List accounts, newest first'
complete -c crm -n '__crm_at \'help accounts\'' -a get -d 'Show one account (or several)'
complete -c crm -n '__crm_at \'help accounts\'' -a view -d 'Show an account whole: its contacts and its deals'
complete -c crm -n '__crm_at \'help accounts\'' -a create -d 'Create an account'
complete -c crm -n '__crm_at \'help accounts\'' -a new -d 'Create an account'
complete -c crm -n '__crm_at \'help accounts\'' -a update -d 'Change fields of an account (or several)'
complete -c crm -n '__crm_at \'help accounts\'' -a edit -d 'Change fields of an account (or several)'
complete -c crm -n '__crm_at \'help accounts\'' -a delete -d 'Delete an account (or several)'
complete -c crm -n '__crm_at \'help accounts\'' -a rm -d 'Delete an account (or several)'
complete -c crm -n '__crm_at \'help accounts\'' -s h -l help -d 'show help'

# crm help accounts list
complete -c crm -n '__crm_at \'help accounts list\'' -s h -l help -d 'show help'

# crm help accounts get
complete -c crm -n '__crm_at \'help accounts get\'' -s h -l help -d 'show help'

# crm help accounts view
complete -c crm -n '__crm_at \'help accounts view\'' -s h -l help -d 'show help'

# crm help accounts create
complete -c crm -n '__crm_at \'help accounts create\'' -s h -l help -d 'show help'

# crm help accounts update
complete -c crm -n '__crm_at \'help accounts update\'' -s h -l help -d 'show help'

# crm help accounts delete
complete -c crm -n '__crm_at \'help accounts delete\'' -s h -l help -d 'show help'

# crm help deals
complete -c crm -n '__crm_at \'help deals\'' -a list -d 'List deals, newest first'
complete -c crm -n '__crm_at \'help deals\'' -a ls -d 'List deals, newest first'
complete -c crm -n '__crm_at \'help deals\'' -a get -d 'Show one deal (or several)'
complete -c crm -n '__crm_at \'help deals\'' -a view -d 'Show a deal whole: its stage history, account, contact and open tasks'
complete -c crm -n '__crm_at \'help deals\'' -a create -d 'Create a deal'
complete -c crm -n '__crm_at \'help deals\'' -a new -d 'Create a deal'
complete -c crm -n '__crm_at \'help deals\'' -a update -d 'Change fields of a deal (or several)'
complete -c crm -n '__crm_at \'help deals\'' -a edit -d 'Change fields of a deal (or several)'
complete -c crm -n '__crm_at \'help deals\'' -a delete -d 'Delete a deal (or several)'
complete -c crm -n '__crm_at \'help deals\'' -a rm -d 'Delete a deal (or several)'
complete -c crm -n '__crm_at \'help deals\'' -a stage -d 'Move a deal to another pipeline stage (logs an activity)'
complete -c crm -n '__crm_at \'help deals\'' -s h -l help -d 'show help'

# crm help deals list
complete -c crm -n '__crm_at \'help deals list\'' -s h -l help -d 'show help'

# crm help deals get
complete -c crm -n '__crm_at \'help deals get\'' -s h -l help -d 'show help'

# crm help deals view
complete -c crm -n '__crm_at \'help deals view\'' -s h -l help -d 'show help'

# crm help deals create
complete -c crm -n '__crm_at \'help deals create\'' -s h -l help -d 'show help'

# crm help deals update
complete -c crm -n '__crm_at \'help deals update\'' -s h -l help -d 'show help'

# crm help deals delete
complete -c crm -n '__crm_at \'help deals delete\'' -s h -l help -d 'show help'

# crm help deals stage
complete -c crm -n '__crm_at \'help deals stage\'' -s h -l help -d 'show help'

# crm help sequences
complete -c crm -n '__crm_at \'help sequences\'' -a list -d 'List sequences, newest first'
complete -c crm -n '__crm_at \'help sequences\'' -a ls -d 'List sequences, newest first'
complete -c crm -n '__crm_at \'help sequences\'' -a get -d 'Show one sequence (or several)'
complete -c crm -n '__crm_at \'help sequences\'' -a view -d 'Show one sequence (or several)'
complete -c crm -n '__crm_at \'help sequences\'' -a create -d 'Create a sequence'
complete -c crm -n '__crm_at \'help sequences\'' -a new -d 'Create a sequence'
complete -c crm -n '__crm_at \'help sequences\'' -a update -d 'Change fields of a sequence (or several)'
complete -c crm -n '__crm_at \'help sequences\'' -a edit -d 'Change fields of a sequence (or several)'
complete -c crm -n '__crm_at \'help sequences\'' -a delete -d 'Delete a sequence (or several)'
complete -c crm -n '__crm_at \'help sequences\'' -a rm -d 'Delete a sequence (or several)'
complete -c crm -n '__crm_at \'help sequences\'' -a enroll -d 'Enrol contacts into a sequence (ids from arguments, --file, or stdin)'
complete -c crm -n '__crm_at \'help sequences\'' -a contacts -d 'List the contacts enrolled in a sequence'
complete -c crm -n '__crm_at \'help sequences\'' -s h -l help -d 'show help'

# crm help sequences list
complete -c crm -n '__crm_at \'help sequences list\'' -s h -l help -d 'show help'

# crm help sequences get
complete -c crm -n '__crm_at \'help sequences get\'' -s h -l help -d 'show help'

# crm help sequences create
complete -c crm -n '__crm_at \'help sequences create\'' -s h -l help -d 'show help'

# crm help sequences update
complete -c crm -n '__crm_at \'help sequences update\'' -s h -l help -d 'show help'

# crm help sequences delete
complete -c crm -n '__crm_at \'help sequences delete\'' -s h -l help -d 'show help'

# crm help sequences enroll
complete -c crm -n '__crm_at \'help sequences enroll\'' -s h -l help -d 'show help'

# crm help sequences contacts
complete -c crm -n '__crm_at \'help sequences contacts\'' -s h -l help -d 'show help'

# crm help tasks
complete -c crm -n '__crm_at \'help tasks\'' -a list -d 'List tasks, newest first (or by due date)'
complete -c crm -n '__crm_at \'help tasks\'' -a ls -d 'List tasks, newest first (or by due date)'
complete -c crm -n '__crm_at \'help tasks\'' -a get -d 'Show one task (or several)'
complete -c crm -n '__crm_at \'help tasks\'' -a view -d 'Show one task (or several)'
complete -c crm -n '__crm_at \'help tasks\'' -a create -d 'Create a task'
complete -c crm -n '__crm_at \'help tasks\'' -a new -d 'Create a task'
complete -c crm -n '__crm_at \'help tasks\'' -a update -d 'Change fields of a task (or several)'
complete -c crm -n '__crm_at \'help tasks\'' -a edit -d 'Change fields of a task (or several)'
complete -c crm -n '__crm_at \'help tasks\'' -a delete -d 'Delete a task (or several)'
complete -c crm -n '__crm_at \'help tasks\'' -a rm -d 'Delete a task (or several)'
complete -c crm -n '__crm_at \'help tasks\'' -a complete -d 'Mark tasks complete'
complete -c crm -n '__crm_at \'help tasks\'' -a done -d 'Mark tasks complete'
complete -c crm -n '__crm_at \'help tasks\'' -s h -l help -d 'show help'

# crm help tasks list
complete -c crm -n '__crm_at \'help tasks list\'' -s h -l help -d 'show help'

# crm help tasks get
complete -c crm -n '__crm_at \'help tasks get\'' -s h -l help -d 'show help'

# crm help tasks create
complete -c crm -n '__crm_at \'help tasks create\'' -s h -l help -d 'show help'

# crm help tasks update
complete -c crm -n '__crm_at \'help tasks update\'' -s h -l help -d 'show help'

# crm help tasks delete
complete -c crm -n '__crm_at \'help tasks delete\'' -s h -l help -d 'show help'

# crm help tasks complete
complete -c crm -n '__crm_at \'help tasks complete\'' -s h -l help -d 'show help'

# crm help pipeline
complete -c crm -n '__crm_at \'help pipeline\'' -a stages -d 'List the pipeline stages'
complete -c crm -n '__crm_at \'help pipeline\'' -a deals -d 'Deal count and total value per stage'
complete -c crm -n '__crm_at \'help pipeline\'' -s h -l help -d 'show help'

# crm help pipeline stages
complete -c crm -n '__crm_at \'help pipeline stages\'' -s h -l help -d 'show help'

# crm help pipeline deals
complete -c crm -n '__crm_at \'help pipeline deals\'' -s h -l help -d 'show help'

# crm help search
complete -c crm -n '__crm_at \'help search\'' -s h -l help -d 'show help'

# crm help analytics
complete -c crm -n '__crm_at \'help analytics\'' -s h -l help -d 'show help'

# crm help ai
complete -c crm -n '__crm_at \'help ai\'' -a suggestions -d 'List pending AI suggestions'
complete -c crm -n '__crm_at \'help ai\'' -a accept -d 'Accept AI suggestions (no id on a terminal: pick from the pending ones)'
complete -c crm -n '__crm_at \'help ai\'' -a trigger -d 'Score a contact now and persist its next best action'
complete -c crm -n '__crm_at \'help ai\'' -s h -l help -d 'show help'

# crm help ai suggestions
complete -c crm -n '__crm_at \'help ai suggestions\'' -s h -l help -d 'show help'

# crm help ai accept
complete -c crm -n '__crm_at \'help ai accept\'' -s h -l help -d 'show help'

# crm help ai trigger
complete -c crm -n '__crm_at \'help ai trigger\'' -s h -l help -d 'show help'

# crm help auth
complete -c crm -n '__crm_at \'help auth\'' -a login -d 'Store an API key for a workspace (verified before it is saved)'
complete -c crm -n '__crm_at \'help auth\'' -a status -d 'Show the profile, base URL, key (last 4 characters), where each came from, and whether the key works'
complete -c crm -n '__crm_at \'help auth\'' -a logout -d 'Remove the profile\'s stored key (and offer to delete its local replica)'
complete -c crm -n '__crm_at \'help auth\'' -s h -l help -d 'show help'

# crm help auth login
complete -c crm -n '__crm_at \'help auth login\'' -s h -l help -d 'show help'

# crm help auth status
complete -c crm -n '__crm_at \'help auth status\'' -s h -l help -d 'show help'

# crm help auth logout
complete -c crm -n '__crm_at \'help auth logout\'' -s h -l help -d 'show help'

# crm help profiles
complete -c crm -n '__crm_at \'help profiles\'' -a list -d 'List stored profiles'
complete -c crm -n '__crm_at \'help profiles\'' -a ls -d 'List stored profiles'
complete -c crm -n '__crm_at \'help profiles\'' -a use -d 'Make a profile the active one'
complete -c crm -n '__crm_at \'help profiles\'' -a remove -d 'Remove a stored profile and its key (and offer to delete its local replica)'
complete -c crm -n '__crm_at \'help profiles\'' -a rm -d 'Remove a stored profile and its key (and offer to delete its local replica)'
complete -c crm -n '__crm_at \'help profiles\'' -s h -l help -d 'show help'

# crm help profiles list
complete -c crm -n '__crm_at \'help profiles list\'' -s h -l help -d 'show help'

# crm help profiles use
complete -c crm -n '__crm_at \'help profiles use\'' -s h -l help -d 'show help'

# crm help profiles remove
complete -c crm -n '__crm_at \'help profiles remove\'' -s h -l help -d 'show help'

# crm help config
complete -c crm -n '__crm_at \'help config\'' -a get -d 'Print one setting of the active profile'
complete -c crm -n '__crm_at \'help config\'' -a set -d 'Change one setting of the active profile'
complete -c crm -n '__crm_at \'help config\'' -a unset -d 'Remove one setting of the active profile (back to the default)'
complete -c crm -n '__crm_at \'help config\'' -a list -d 'Print every setting of the active profile: the value in effect and where it came from'
complete -c crm -n '__crm_at \'help config\'' -a ls -d 'Print every setting of the active profile: the value in effect and where it came from'
complete -c crm -n '__crm_at \'help config\'' -s h -l help -d 'show help'

# crm help config get
complete -c crm -n '__crm_at \'help config get\'' -s h -l help -d 'show help'

# crm help config set
complete -c crm -n '__crm_at \'help config set\'' -s h -l help -d 'show help'

# crm help config unset
complete -c crm -n '__crm_at \'help config unset\'' -s h -l help -d 'show help'

# crm help config list
complete -c crm -n '__crm_at \'help config list\'' -s h -l help -d 'show help'

# crm help sandbox
complete -c crm -n '__crm_at \'help sandbox\'' -a init -d 'Create the local sandbox database with demo data'
complete -c crm -n '__crm_at \'help sandbox\'' -a serve -d 'Serve the sandbox over HTTP on 127.0.0.1 (with the hourly scoring agent)'
complete -c crm -n '__crm_at \'help sandbox\'' -a reset -d 'Replace every record of the local sandbox with fresh demo data (the key stays; safe while it is served)'
complete -c crm -n '__crm_at \'help sandbox\'' -a status -d 'Show the sandbox database path, record counts and its local API key'
complete -c crm -n '__crm_at \'help sandbox\'' -s h -l help -d 'show help'

# crm help sandbox init
complete -c crm -n '__crm_at \'help sandbox init\'' -s h -l help -d 'show help'

# crm help sandbox serve
complete -c crm -n '__crm_at \'help sandbox serve\'' -s h -l help -d 'show help'

# crm help sandbox reset
complete -c crm -n '__crm_at \'help sandbox reset\'' -s h -l help -d 'show help'

# crm help sandbox status
complete -c crm -n '__crm_at \'help sandbox status\'' -s h -l help -d 'show help'

# crm help api
complete -c crm -n '__crm_at \'help api\'' -s h -l help -d 'show help'

# crm help mcp
complete -c crm -n '__crm_at \'help mcp\'' -s h -l help -d 'show help'

# crm help completion
complete -c crm -n '__crm_at \'help completion\'' -s h -l help -d 'show help'

# crm help watch
complete -c crm -n '__crm_at \'help watch\'' -s h -l help -d 'show help'

# crm help sync
complete -c crm -n '__crm_at \'help sync\'' -s h -l help -d 'show help'

# crm help query
complete -c crm -n '__crm_at \'help query\'' -s h -l help -d 'show help'
