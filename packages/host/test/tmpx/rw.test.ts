import { rewriteImports } from '../../src/server/vendor';
import { readFileSync } from 'node:fs';
it('x', () => {
  const d = '/work/main/node_modules/three/';
  for (const [n, p] of Object.entries({ 'three.module.js': 'build/three.module.js', 'three.core.js': 'build/three.core.js', 'GLTFLoader.js': 'examples/jsm/loaders/GLTFLoader.js', 'OrbitControls.js': 'examples/jsm/controls/OrbitControls.js', 'BufferGeometryUtils.js': 'examples/jsm/utils/BufferGeometryUtils.js', 'SkeletonUtils.js': 'examples/jsm/utils/SkeletonUtils.js' })) {
    const src = readFileSync(d + p, 'utf8');
    const out = rewriteImports(n, src);
    const diff = src.split('\n').filter((l, i) => l !== out.split('\n')[i]);
    console.log(n, diff.map((l) => l.slice(0, 80)), out.split('\n').filter((l, i) => l !== src.split('\n')[i]).map((l) => l.slice(0, 80)));
  }
});
