// crm ai suggestions: the pending suggestions, run by the generic runner.

import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand({
  command: ['ai', 'suggestions'],
  summary: 'List pending AI suggestions',
  endpoint: 'ai_suggestions',
  columns: RESOURCES.suggestion.columns,
  examples: [ex('crm ai suggestions --type deal_risk', 'deals at risk', { tool: { type: 'deal_risk' } })],
});
