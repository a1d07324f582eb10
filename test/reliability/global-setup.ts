// Runs around the whole suite: gives the tests a directory for their evidence (test/helpers/evidence.ts),
// then, at the end, scans everything crm printed for the keys it was given and prints the figures of
// the reliability checks. A key found anywhere fails the run.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findLeaks, readCaptures, readFigures } from './scan.js';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'crm-evidence-'));
  project.provide('evidenceDir', dir);
  return () => {
    const captures = readCaptures(dir);
    const leaks = findLeaks(captures);
    const figures = readFigures(dir);
    rmSync(dir, { recursive: true, force: true });
    const figure = (name: string) => figures.get(name) ?? 0;
    const lines = [
      'Reliability figures',
      `  faults x methods tried:  ${figure('faults')} x ${figure('methods')} = ${figure('fault cases (in-process)')} in-process, ${figure('fault cases (processes)')} as processes`,
      `  bad inputs tried:        ${figure('bad inputs')} (exit 2, nothing sent)`,
      `  records written:         ${figure('records written')} under load, by ${figure('writers')} concurrent writers`,
      `  records lost:            ${figure('records lost')}`,
      `  key leaks:               ${leaks.length} (in ${captures.length} outputs scanned)`,
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
    if (leaks.length > 0) {
      throw new Error(`the API key appeared in crm's output ${leaks.length} time(s):\n${leaks.map((leak) => `  ${leak.key}: ${JSON.stringify(leak.excerpt)}`).join('\n')}`);
    }
  };
}
