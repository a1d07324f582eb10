// Replaced at build time by the bundler (scripts/build.mjs) with package.json's version.
declare const __CRM_VERSION__: string | undefined;

export const VERSION: string = typeof __CRM_VERSION__ === 'string' ? __CRM_VERSION__ : '0.0.0-dev';
