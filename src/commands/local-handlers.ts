// The code of the local commands, by the names src/commands/local.ts gives them.

import * as api from './api.js';
import * as auth from './auth.js';
import * as config from './config.js';
import type { LocalHandler, LocalHandlerName } from './local.js';
import * as profiles from './profiles.js';
import * as sandbox from './sandbox.js';

export const LOCAL_HANDLERS: Record<LocalHandlerName, LocalHandler> = {
  'auth.login': auth.login,
  'auth.status': auth.status,
  'auth.logout': auth.logout,
  'profiles.list': profiles.list,
  'profiles.use': profiles.use,
  'profiles.remove': profiles.remove,
  'config.get': config.get,
  'config.set': config.set,
  'config.list': config.list,
  'sandbox.init': sandbox.init,
  'sandbox.serve': sandbox.serve,
  'sandbox.reset': sandbox.reset,
  'sandbox.status': sandbox.status,
  'api.run': api.run,
};
