// crm auth logout: forget the active profile's key.

import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand({ command: ['auth', 'logout'], summary: "Remove the profile's stored key (and offer to delete its local replica)", examples: [ex('crm auth logout', "forget the active profile's key")] }, () => import('./run.js'));
