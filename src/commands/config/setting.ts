// The KEY argument of crm config: a setting's name (src/registry/local.ts SETTING_NAMES).

import { SETTING_NAMES } from '../../registry/local.js';
import type { FieldSpec } from '../../registry/types.js';

export const SETTING_ARG = { name: 'key', type: 'string', description: 'the setting (api_key shown masked)', known: SETTING_NAMES } as const satisfies FieldSpec;
/**
 * What config set and unset change: not the key, which `crm auth login` and `logout` do (help and
 * completions offer only these; `config set api_key` is still told so, not called unknown).
 */
export const SETTABLE_ARG = { name: 'key', type: 'string', description: 'the setting', known: SETTING_NAMES.filter((name) => name !== 'api_key') } as const satisfies FieldSpec;
