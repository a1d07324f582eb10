import type { Context } from '../../cli/context.js';
import type { Result } from '../../cli/result.js';
import type { LocalCommand } from '../../registry/local.js';
import type { Invocation } from '../invocation.js';

export type LocalHandler = (ctx: Context, invocation: Invocation<LocalCommand>) => Promise<Result>;
