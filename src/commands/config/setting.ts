// The KEY argument of crm config: a setting's name (src/registry/local.ts SETTING_NAMES).

import { SETTING_NAMES } from '../../registry/local.js';
import type { FieldSpec } from '../../registry/types.js';

export const SETTING_ARG = { name: 'key', type: 'string', description: 'base_url, output, timeout or api_key (masked)', known: SETTING_NAMES } as const satisfies FieldSpec;
export const SETTABLE_ARG = { name: 'key', type: 'string', description: 'base_url, output or timeout', known: SETTING_NAMES } as const satisfies FieldSpec;
