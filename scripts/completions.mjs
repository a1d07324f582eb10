// Writes completions/crm.bash, completions/_crm (zsh) and completions/crm.fish: what the built
// `crm completion SHELL` prints, generated from the command registry. `npm run completions` builds
// first; test/unit/completion.test.ts fails while a checked-in file differs from what crm prints.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));
const FILES = { bash: 'crm.bash', zsh: '_crm', fish: 'crm.fish' };

for (const [shell, file] of Object.entries(FILES)) {
  // A clean environment: no CRM_OUTPUT or profile setting can change what is printed.
  const result = spawnSync(process.execPath, [CRM, 'completion', shell], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (result.status !== 0) throw new Error(`crm completion ${shell} exited ${result.status}: ${result.stderr}`);
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), result.stdout);
  console.log(`completions/${file}`);
}
