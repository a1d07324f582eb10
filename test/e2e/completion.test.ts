// The completion scripts in the real shells, with the built crm on the PATH: bash (complete -p and
// calling _crm as bash would), zsh (an interactive zsh in a pseudo-terminal, TAB pressed) and fish
// (complete -C); each script's syntax with bash -n, zsh -n and fish -n. Dynamic values (profiles,
// stages, sequences) come from `crm __complete` on a fresh home: the embedded sandbox.
// .ci/run installs zsh and fish; on a machine without them those tests are skipped, never on CI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, freshHome } from '../helpers/crm.js';

const COMPLETIONS = fileURLToPath(new URL('../../completions/', import.meta.url));
const ZSH_HARNESS = fileURLToPath(new URL('../helpers/zsh-complete.zsh', import.meta.url));

function installed(shell: string): boolean {
  const found = spawnSync(shell, ['-c', 'exit 0']).status === 0;
  if (!found && process.env.CI) throw new Error(`${shell} is not installed (.ci/run installs it)`);
  return found;
}

let user: NodeJS.ProcessEnv | undefined;

/** A fresh user with `crm` on the PATH (the built CLI), shared by the shells: the first one to ask fills the cache. */
function userEnv(): NodeJS.ProcessEnv {
  if (user) return user;
  const bin = mkdtempSync(join(tmpdir(), 'crm-bin-'));
  symlinkSync(CRM_BIN, join(bin, 'crm'));
  const env = freshHome();
  return (user = { ...env, PATH: `${bin}:${env.PATH}` });
}

function shell(command: string, args: string[], env: NodeJS.ProcessEnv, input?: string): string {
  const result = spawnSync(command, args, { env, input, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** What each line completes to, as `line => candidates` (sorted), one a line. */
function table(lines: Record<string, string>): string {
  return Object.entries(lines)
    .map(([line, candidates]) => `${line} => ${candidates.split(/\s+/).filter(Boolean).sort().join(' ')}`)
    .join('\n');
}

// The same expectations for every shell (fish and zsh show a directory with its slash; bash does not).
const CASES: Record<string, string> = {
  'crm ': 'accounts ai analytics api auth completion config contacts deals help mcp pipeline profiles query sandbox search sequences status sync tasks watch',
  'crm con': 'config contacts',
  'crm contacts ': 'create delete edit enroll export get import list ls new notes rm tasks update view',
  'crm contacts notes ': 'add list ls',
  'crm contacts ls --st': '--status',
  'crm contacts ls --status ': 'churned customer lead prospect',
  'crm deals list --json --stage ': 'closed_lost closed_won negotiation proposal prospecting qualification',
  'crm deals stage deal_m279ns143s296hm4 ': 'closed_lost closed_won negotiation proposal prospecting qualification',
  'crm contacts enroll con_1 --sequence ': 'seq_ay37sjvy486zvpxp seq_l5zzndpb71w0ultz',
  'crm -o ': 'csv json ndjson table tsv',
  'crm analytics --period ': '30d 7d 90d',
  'crm search globex --types contacts,': 'contacts,accounts contacts,deals contacts,tasks',
  'crm --profile ': 'sandbox',
  'crm profiles use ': 'sandbox',
  'crm help ': 'accounts ai analytics api auth completion config contacts deals environment exit-codes flags mcp output pipeline profiles query sandbox search sequences status sync tasks watch',
  // help takes a command's words as crm does.
  'crm help contacts ': 'create delete edit enroll export get import list ls new notes rm tasks update view',
  'crm help contacts notes ': 'add list ls',
  'crm help deals st': 'stage',
  'crm mcp --toolsets contacts,': 'contacts,accounts contacts,ai contacts,analytics contacts,deals contacts,pipeline contacts,search contacts,sequences contacts,tasks',
  'crm completion ': 'bash fish zsh',
  'crm api ': 'DELETE GET PATCH POST PUT',
  'crm sync ': 'accounts contacts deals enrollments notes sequences stages tasks',
  // The key is set by crm auth login: config set and unset refuse it, so it is not offered there.
  'crm config set ': 'base_url output timeout',
  'crm config unset ': 'base_url output timeout',
  'crm config get ': 'api_key base_url output timeout',
};
const expected = table(CASES);

/** Output lines `LINE<separator>candidates` as an object. */
const parse = (out: string, separator: string) => Object.fromEntries(out.trimEnd().split('\n').map((line) => line.split(separator) as [string, string]));

describe('completion scripts', () => {
  it('are valid bash, zsh and fish', () => {
    shell('bash', ['-n', join(COMPLETIONS, 'crm.bash')], process.env);
    if (installed('zsh')) shell('zsh', ['-n', join(COMPLETIONS, '_crm')], process.env);
    if (installed('fish')) shell('fish', ['-n', join(COMPLETIONS, 'crm.fish')], process.env);
  });

  it('bash: registers _crm for crm and completes commands, flags and values', () => {
    const script = [
      `source ${JSON.stringify(join(COMPLETIONS, 'crm.bash'))}`,
      'complete -p crm',
      // As bash calls it: the words, the index of the one under the cursor.
      't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _crm; printf "%s\\t%s\\n" "$*" "${COMPREPLY[*]}"; }',
      ...Object.keys(CASES).map((line) => `t ${line.split(' ').map((word) => JSON.stringify(word)).join(' ')}`),
      // --output=<TAB>: bash splits the = into a word of its own.
      't crm --output = ""',
      't crm --output = n',
    ].join('\n');
    const [registered, ...lines] = shell('bash', ['-c', script], userEnv()).trimEnd().split('\n');
    expect(registered).toBe('complete -F _crm crm');
    const { 'crm --output = ': equals, 'crm --output = n': prefix, ...results } = parse(lines.join('\n'), '\t');
    expect(equals).toBe('table json ndjson csv tsv');
    expect(prefix).toBe('ndjson');
    expect(table(results)).toBe(expected);
  });

  it.runIf(installed('fish'))('fish: complete -C offers commands, flags and values', () => {
    const script = [`source ${JSON.stringify(join(COMPLETIONS, 'crm.fish'))}`, ...Object.keys(CASES).map((line) => `echo "${line}=>"(complete -C "${line}" | string split -f1 \\t | string join ' ')`)].join('\n');
    expect(table(parse(shell('fish', ['-N', '-c', script], userEnv()), '=>'))).toBe(expected);
    // --output=<TAB> completes in the same word.
    expect(shell('fish', ['-N', '-c', `source ${JSON.stringify(join(COMPLETIONS, 'crm.fish'))}; complete -C 'crm --output=nd'`], userEnv())).toBe('--output=ndjson\toutput format\n');
  });

  it.runIf(installed('zsh'))('zsh: TAB at an interactive zsh offers commands, flags and values', () => {
    const results = parse(shell('zsh', ['-f', ZSH_HARNESS, COMPLETIONS, ...Object.keys(CASES)], userEnv()), '\t');
    // zsh's _values offers the next item of a comma-separated list on its own: contacts,de -> deals.
    const items = Object.fromEntries(Object.entries(CASES).map(([line, candidates]) => [line, line.endsWith(',') ? candidates.replace(/\S*,/g, '') : candidates]));
    expect(table(results)).toBe(table(items));
    // Sourced after compinit instead of autoloaded from $fpath.
    const sourced = shell('zsh', ['-f', ZSH_HARNESS, join(COMPLETIONS, '_crm'), 'crm con', 'crm deals stage deal_m279ns143s296hm4 '], userEnv());
    expect(sourced).toBe(`crm con\tconfig contacts\ncrm deals stage deal_m279ns143s296hm4 \t${CASES['crm deals stage deal_m279ns143s296hm4 ']}\n`);
  });
});

describe('crm completion', () => {
  it('prints what completions/ holds, from the built CLI', () => {
    expect(shell(process.execPath, [CRM_BIN, 'completion', 'bash'], freshHome())).toBe(readFileSync(join(COMPLETIONS, 'crm.bash'), 'utf8'));
  });

  it('the fast path is a file of its own that loads no library and no other part of crm', () => {
    const source = readFileSync(fileURLToPath(new URL('../../dist/complete.js', import.meta.url)), 'utf8');
    const imports = [...source.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]);
    // node: built-ins, and the app only when the cache has nothing fresh.
    expect(imports.filter((name) => !name!.startsWith('node:'))).toEqual(['./app.js']);
  });
});
