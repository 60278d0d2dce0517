/**
 * A script that loads the module at `path` in a worker thread (`new Worker(script, { eval: true })`)
 * or a Node process (`node -e script`), for a plugin that moves heavy work off the host's event
 * loop. Give the path with the extension of the calling file (`join(__dirname, `worker${extname(__filename)}`)`):
 * built, that is `.js` and it is required as it is; under jest the sources are TypeScript that
 * jest compiles in memory, which another thread or process cannot see, so a `.ts` module is
 * compiled the same way (swc) as it is required.
 */
export function moduleScript(path: string): string {
  const entry = JSON.stringify(path);
  if (!path.endsWith('.ts')) return `require(${entry});`;
  const swc = JSON.stringify(require.resolve('@swc/core'));
  const options = JSON.stringify({ jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs', ignoreDynamic: true }, sourceMaps: 'inline' });
  return [
    `const swc = require(${swc});`,
    `require.extensions['.ts'] = (module, file) => module._compile(swc.transformFileSync(file, ${options}).code, file);`,
    `require(${entry});`,
  ].join('\n');
}
