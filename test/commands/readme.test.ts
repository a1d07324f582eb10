// The README is the front door: its quick start works on a fresh install, the ids it shows exist in
// every fresh sandbox, and its tables of flags, variables and exit codes say what the registry says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT, EXIT_CODES, GLOBAL_OPTIONS } from '../../src/registry/global.js';
import { DEMO } from '../../src/registry/operations.js';
import { flagName } from '../../src/registry/types.js';
import { parseCommandLine, runPipeline } from '../helpers/examples.js';
import { openWorkspace } from '../helpers/inprocess.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The body of the section under this heading. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Lines of ```sh blocks that run crm, without their comments. */
function crmLines(text: string): string[] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.flatMap((block) => block.split('\n')).map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line.startsWith('crm '));
}

describe('README', () => {
  it.each(crmLines(section('Quick start').split('\n### ')[0]!))('quick start: %s works on a fresh install', async (line) => {
    const ws = openWorkspace();
    try {
      const outcome = await runPipeline(parseCommandLine(line), ws);
      expect(outcome.code, outcome.stderr).toBe(0);
    } finally {
      ws.close();
    }
  });

  it('runs crm only with ids that exist in a fresh sandbox', () => {
    // Record ids have digits (deal_risk, a suggestion type, does not).
    const ids = crmLines(readme).flatMap((line) => [...line.matchAll(/\b(?:con|acc|deal|seq|task|sug|note)_(?=[a-z]*\d)[a-z0-9]+\b/g)].map((match) => match[0]));
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(Object.values(DEMO), id).toContain(id);
  });

  it('installs crm globally before using it, on the Node versions package.json allows, and names the build tools of the SQLite binding', () => {
    const install = section('Install');
    expect(install).toContain('npm install -g --omit=optional');
    const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(install).toContain(`Node.js ${engines.node.replace(/^>=\s*/, '')} or newer`);
    for (const tool of ['python3', 'make', 'g++']) expect(install).toContain(tool);
    expect(readme.indexOf('npm install -g')).toBeLessThan(readme.indexOf('\n## Quick start'));
  });

  it('documents every global flag, environment variable and exit code the registry has', () => {
    const flags = section('Global flags');
    for (const field of GLOBAL_OPTIONS) expect(flags, flagName(field)).toContain(`--${flagName(field)}`);
    const environment = section('Environment variables');
    for (const variable of ENVIRONMENT) expect(environment).toContain(`\`${variable.name}\``);
    const exits = section('Exit codes');
    for (const exit of EXIT_CODES) expect(exits).toContain(`| ${exit.code} |`);
  });

  it('says --limit is a total', () => {
    expect(readme).toContain('`--limit N` (`-L N`) returns at most N\nrecords in all');
  });
});
