// undici by file, as a CommonJS module's default export (what esbuild's bundle and Node both give).
// Every network command loads only its Agent: the package's index loads all of it (fetch,
// websockets, caches, mocks, and the API methods a proxy needs), which would cost every network
// command start-up time; only commands that go through a proxy load the index. The types are the
// index's.

declare module 'undici/lib/dispatcher/agent.js' {
  export { Agent as default } from 'undici';
}

declare module 'undici/index.js' {
  import * as undici from 'undici';
  export default undici;
}
