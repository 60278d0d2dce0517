import { extname, join } from 'node:path';

/**
 * A script that loads the module `name` of the directory `dir` (this plugin's sources or its
 * build), for a worker thread (`new Worker(script, { eval: true })`) or a Node process
 * (`node -e script`). Built, it requires `name.js`. Under jest the sources are TypeScript that jest
 * compiles in memory, which another thread or process cannot see: the script compiles them the
 * same way (swc) as it requires them.
 */
export function moduleScript(dir: string, name: string): string {
  const extension = extname(__filename);
  const entry = JSON.stringify(join(dir, `${name}${extension}`));
  if (extension !== '.ts') return `require(${entry});`;
  const swc = JSON.stringify(require.resolve('@swc/core'));
  const options = JSON.stringify({ jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs', ignoreDynamic: true }, sourceMaps: 'inline' });
  return [
    `const swc = require(${swc});`,
    `require.extensions['.ts'] = (module, file) => module._compile(swc.transformFileSync(file, ${options}).code, file);`,
    `require(${entry});`,
  ].join('\n');
}
