// The command tree as the tests take it apart: the commands of the service's endpoints (one per
// endpoint: the MCP tools) and crm's own (auth, profiles, config, the sandbox, raw access, MCP...).
import { callsEndpoint, type Command, type EndpointCommand } from '../../src/commands/command.js';
import { COMMANDS } from '../../src/commands/index.js';

/** The commands that each call one endpoint of the service, in help order. */
export const ENDPOINT_COMMANDS: readonly EndpointCommand[] = COMMANDS.filter(callsEndpoint);
/** The commands that are not one endpoint. */
export const LOCAL_COMMANDS: readonly Command[] = COMMANDS.filter((command) => !callsEndpoint(command));
