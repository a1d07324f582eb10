// Preloaded into a measured process (node -r ./bench/usage.cjs ...): when it exits, writes what it
// used as JSON to the file named by CRM_BENCH_USAGE_FILE: peakKb, its peak resident set size, and
// cpuMs, the CPU time it took (user and system, every thread), which other work on a shared machine
// inflates far less than wall time.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  if (!process.env.CRM_BENCH_USAGE_FILE) return;
  const usage = process.resourceUsage();
  writeFileSync(process.env.CRM_BENCH_USAGE_FILE, JSON.stringify({ peakKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }));
});
