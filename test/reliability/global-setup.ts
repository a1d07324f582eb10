// Runs around the whole suite: gives the tests a directory for their evidence (test/helpers/evidence.ts),
// then, at the end, scans everything crm printed for the keys it was given and prints the figures of
// the reliability checks. A key found anywhere fails the run.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PAGES_IN_FLIGHT } from '../../src/http/paginate.js';
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
      `  faults x methods tried:   ${figure('faults')} x ${figure('methods')}: ${figure('fault cases (in-process)')} cases in-process, ${figure('fault cases (processes)')} as processes`,
      `  bad inputs tried:         ${figure('bad inputs')} (each exit 2, nothing sent)`,
      `  embedded sandbox:         ${figure('embedded records')} contacts created by ${figure('embedded writers')} concurrent crm processes`,
      `  sandbox serve under load: ${figure('served records')} records confirmed in ${figure('served seconds')} s by 16 connections`,
      `  records lost:             ${figure('records lost')}`,
      ...[PAGES_IN_FLIGHT, 1].map(
        (inFlight) =>
          `  ${`walks, ${inFlight} in flight:`.padEnd(26)}${figure(`walk runs (${inFlight} in flight)`)} runs of a list changed at the promised rate, none outpaced, ${(figure(`walk requests (${inFlight} in flight)`) / (figure(`walk requests of still lists (${inFlight} in flight)`) || 1)).toFixed(2)}x the requests of a still list`,
      ),
      `  walks beyond the rate:    ${figure('walk runs beyond the rate')} runs, ${figure('walk runs beyond the rate that gave up')} stopped with exit 1, none ended with a record missing`,
      `  walks, records read gone: ${figure('walk runs with records read deleted')} runs, ${figure('walk runs with records read deleted that gave up')} stopped with exit 1, none ended with a record missing`,
      `  key leaks:                ${leaks.length} (in ${captures.length} outputs scanned)`,
    ];
    if (figures.size > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
    if (leaks.length > 0) {
      throw new Error(`the API key appeared in crm's output ${leaks.length} time(s):\n${leaks.map((leak) => `  ${leak.key}: ${JSON.stringify(leak.excerpt)}`).join('\n')}`);
    }
  };
}
