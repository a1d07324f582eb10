// Record ids (`con_...`: a prefix and random characters) and the sandbox's API keys.

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type IdPrefix = 'acc' | 'act' | 'con' | 'deal' | 'eml' | 'enr' | 'list' | 'note' | 'seq' | 'sug' | 'task';

/** Returns an integer in [0, n); the seed passes a deterministic one, everything else the CSPRNG. */
type RandomIndex = (n: number) => number;

function randomCharacters(alphabet: string, length: number, randomIndex: RandomIndex): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[randomIndex(alphabet.length)];
  return text;
}

/** The CSPRNG's: node:crypto is loaded by what creates something, not by every sandbox start (about 3 ms). */
const randomInt: RandomIndex = (n) => process.getBuiltinModule('node:crypto').randomInt(n);

export function newId(prefix: IdPrefix, randomIndex: RandomIndex = randomInt): string {
  return `${prefix}_${randomCharacters(ID_ALPHABET, 16, randomIndex)}`;
}

export function newApiKey(): string {
  return `sbx_test_${randomCharacters(KEY_ALPHABET, 32, randomInt)}`;
}
