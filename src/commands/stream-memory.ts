// A long streamed walk (export, --all, api --paginate) allocates at a steady rate, and V8 answers by
// growing its young generation step by step to 32 MB: most of what such a command's memory grew by
// (bench/scale.mjs, 100,000 records against 1,000). Keeping it at its starting size keeps memory
// flat, for more scavenges of a small space (they are cheap). Node's documented way to change a V8
// setting from inside the process; V8 reads this one each time it would grow the space.

export async function keepYoungGenerationSmall(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
}
